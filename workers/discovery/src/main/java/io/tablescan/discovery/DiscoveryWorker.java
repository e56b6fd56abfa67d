package io.tablescan.discovery;

import io.tablescan.runtime.ItemThreads;
import io.tablescan.runtime.ItemKind;
import io.tablescan.runtime.WorkerLauncher;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.PrefixQuery;

/** discovery-worker: consumes prefix queries; emits child ranges, partition queries and entity batches. */
public final class DiscoveryWorker {
    public static final String NAME = "discovery";
    public static final ItemKind INPUT = ItemKind.PREFIX_QUERY;

    /**
     * Few records per poll: each may read several pages. Each item holds up to page budget x page size rows
     * (5,000 with the defaults) until its outputs commit, so the rows in memory grow with the reads in flight.
     */
    static final int MAX_POLL_RECORDS = 16;

    private DiscoveryWorker() {}

    public static WorkerRuntime<PrefixQuery> create(WorkerSettings settings) {
        return WorkerRuntime.create(settings, NAME, INPUT, new PrefixQueryHandler(settings),
                MAX_POLL_RECORDS, settings.readInFlight(), ItemThreads.PLATFORM);
    }

    public static void main(String[] args) {
        System.exit(WorkerLauncher.run("discovery", DiscoveryWorker::create));
    }
}
