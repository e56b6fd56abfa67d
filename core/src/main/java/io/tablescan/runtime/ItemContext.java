package io.tablescan.runtime;

import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.SinkOutput;
import io.tablescan.table.ItemWrites;
import io.tablescan.table.RetryCounter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * What a handler gets with one work item besides the item: the scan it belongs to, and the counts of retries
 * and throttling met while handling it (the stores and sinks the handler uses report to it), which the worker
 * adds to the scan's event when the item commits; and the records its sink published, sent in the same transaction.
 */
public final class ItemContext implements RetryCounter, SinkOutput, ItemWrites {
    /** The header naming the scan on every record a sink publishes. */
    public static final String SCAN_ID_HEADER = "scanId";

    private final ScanSpec spec;
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong throttles = new AtomicLong();
    private final List<ProducerRecord<byte[], byte[]>> published = new ArrayList<>();
    private volatile boolean written;

    public ItemContext(ScanSpec spec) {
        this.spec = spec;
    }

    /** The scan the item belongs to. */
    public ScanSpec spec() {
        return spec;
    }

    @Override
    public void retried() {
        retries.incrementAndGet();
    }

    @Override
    public void throttled() {
        throttles.incrementAndGet();
    }

    @Override
    public void writing() {
        written = true;
    }

    @Override
    public boolean hasWritten() {
        return written;
    }

    /** Requests and writes retried so far for this item. */
    public long retries() {
        return retries.get();
    }

    /** Throttling responses met so far for this item. */
    public long throttles() {
        return throttles.get();
    }

    @Override
    public synchronized void publish(String topic, byte[] key, byte[] value, Map<String, byte[]> headers) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, key, value);
        headers.forEach((name, header) -> record.headers().add(new RecordHeader(name, header)));
        if (spec != null && !headers.containsKey(SCAN_ID_HEADER)) { // whose record it is, for any consumer
            record.headers().add(new RecordHeader(SCAN_ID_HEADER, spec.getScanId().getBytes(StandardCharsets.UTF_8)));
        }
        published.add(record);
    }

    /** The records published for this item, in order. */
    synchronized List<ProducerRecord<byte[], byte[]>> published() {
        return List.copyOf(published);
    }
}
