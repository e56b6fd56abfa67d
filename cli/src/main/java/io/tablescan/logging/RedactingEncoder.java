package io.tablescan.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.EncoderBase;
import java.nio.charset.StandardCharsets;

/**
 * Wraps the encoder of an appender and masks credentials ({@link Redaction}) in everything it writes: the message,
 * its arguments and any stack trace, whoever logged it (the Azure SDK, Reactor Netty, MSAL, Kafka, tablescan), at
 * every level and in every format (text or JSON). Configured in the tool's logback files around their encoder.
 */
public final class RedactingEncoder extends EncoderBase<ILoggingEvent> {
    private Encoder<ILoggingEvent> delegate;

    /** The encoder whose output is masked: {@code <delegate class="...">} in a logback file. */
    public void setDelegate(Encoder<ILoggingEvent> delegate) {
        this.delegate = delegate;
    }

    @Override
    public void start() {
        if (delegate == null) {
            addError("no delegate encoder: nothing would be written");
            return;
        }
        if (!delegate.isStarted()) {
            delegate.start();
        }
        super.start();
    }

    @Override
    public void stop() {
        if (delegate != null) {
            delegate.stop();
        }
        super.stop();
    }

    @Override
    public byte[] headerBytes() {
        return delegate == null ? null : delegate.headerBytes();
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        byte[] bytes = delegate.encode(event);
        if (bytes == null || bytes.length == 0) {
            return bytes;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String masked = Redaction.mask(text);
        return masked == text ? bytes : masked.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] footerBytes() {
        return delegate == null ? null : delegate.footerBytes();
    }
}
