package io.tablescan.ledger;

import io.tablescan.schema.ScanEvent;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * A status leaves the ledger when Streams commits, every commit interval (200 ms): a scan that has just ended is
 * committed at once instead, so that whoever waits for its end (every local command, {@code start --wait}) hears
 * of it up to that much sooner. Each event passes through {@link #requester} on its way to the fold, which runs
 * within the forward, on the same thread: the fold marks a status that ended, and the requester then asks Streams
 * to commit (after the records in hand). A scan's later events ask again: they are few. An idle ledger asks nothing.
 */
final class CommitWhenEnded {
    private final ThreadLocal<Boolean> ended = ThreadLocal.withInitial(() -> false);

    /** {@code status}, as the fold made it; marked when it ended. */
    ScanStatus seen(ScanStatus status) {
        if (status != null && status.getState() != ScanState.RUNNING) {
            ended.set(true);
        }
        return status;
    }

    /** The events as they are, a commit asked for when the one just folded ended its scan. */
    FixedKeyProcessor<String, ScanEvent, ScanEvent> requester() {
        return new FixedKeyProcessor<>() {
            private FixedKeyProcessorContext<String, ScanEvent> context;

            @Override
            public void init(FixedKeyProcessorContext<String, ScanEvent> context) {
                this.context = context;
            }

            @Override
            public void process(FixedKeyRecord<String, ScanEvent> record) {
                ended.set(false);
                context.forward(record); // the fold runs here
                if (ended.get()) {
                    ended.set(false);
                    context.commit();
                }
            }
        };
    }
}
