package io.tablescan.partition;

import io.tablescan.runtime.ItemThreads;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.WorkerLauncher;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.PartitionQuery;

/** partition-worker: consumes partition queries; emits entity batches and partition remainders. */
public final class PartitionWorker {
    public static final String NAME = "partition";
    public static final ItemKind INPUT = ItemKind.PARTITION_QUERY;

    static final int MAX_POLL_RECORDS = 16;

    private PartitionWorker() {}

    public static WorkerRuntime<PartitionQuery> create(WorkerSettings settings) {
        return WorkerRuntime.create(settings, NAME, INPUT,
                new PartitionQueryHandler(settings), MAX_POLL_RECORDS, settings.readInFlight(), ItemThreads.PLATFORM);
    }

    public static void main(String[] args) {
        System.exit(WorkerLauncher.run("partition", PartitionWorker::create));
    }
}
