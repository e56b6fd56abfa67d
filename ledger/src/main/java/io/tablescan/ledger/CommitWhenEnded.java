package io.tablescan.ledger;

import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * A status leaves the ledger when Streams commits, every commit interval (200 ms): a scan that has just ended is
 * committed at once instead, so that whoever waits for its end (every local command, {@code start --wait}) hears
 * of it up to that much sooner. The fold marks a status that ended; a punctuation every 10 ms then asks Streams
 * to commit (after the records in hand). A scan's later events ask again: they are few.
 */
final class CommitWhenEnded {
    private static final Duration CHECK = Duration.ofMillis(10);
    private final AtomicBoolean ended = new AtomicBoolean();

    /** {@code status}, as the fold made it; marked when it ended. */
    ScanStatus seen(ScanStatus status) {
        if (status != null && status.getState() != ScanState.RUNNING) {
            ended.set(true);
        }
        return status;
    }

    /** The events as they are, with the punctuation that asks for the commit. */
    FixedKeyProcessor<String, ScanEvent, ScanEvent> requester() {
        return new FixedKeyProcessor<>() {
            private FixedKeyProcessorContext<String, ScanEvent> context;

            @Override
            public void init(FixedKeyProcessorContext<String, ScanEvent> context) {
                this.context = context;
                context.schedule(CHECK, PunctuationType.WALL_CLOCK_TIME, now -> {
                    if (ended.getAndSet(false)) {
                        context.commit();
                    }
                });
            }

            @Override
            public void process(FixedKeyRecord<String, ScanEvent> record) {
                context.forward(record);
            }
        };
    }
}
