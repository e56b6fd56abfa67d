package io.tablescan.copy;

import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.ItemThreads;
import io.tablescan.runtime.WorkerLauncher;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import org.apache.avro.specific.SpecificRecord;

/** copy-worker: consumes entity pages (and batches) and writes them to the sink each scan names (a table by default). */
public final class CopyWorker {
    public static final String NAME = "copy";
    public static final ItemKind INPUT = ItemKind.ENTITY_BATCH;

    static final int MAX_POLL_RECORDS = 500;

    private CopyWorker() {}

    public static WorkerRuntime<SpecificRecord> create(WorkerSettings settings) {
        // One poll may fill the runtime's hand (twice the write slots), so slots freed by finished writes refill
        // at once; a finished write commits without waiting for slower ones.
        return WorkerRuntime.create(settings, NAME, INPUT, new EntityRecordHandler(settings),
                Math.max(MAX_POLL_RECORDS, 2 * settings.maxInFlight()), settings.maxInFlight(), ItemThreads.VIRTUAL);
    }

    public static void main(String[] args) {
        System.exit(WorkerLauncher.run("copy", CopyWorker::create));
    }
}
