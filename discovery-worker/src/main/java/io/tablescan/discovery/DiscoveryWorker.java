package io.tablescan.discovery;

import io.tablescan.runtime.ItemThreads;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerLauncher;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.PrefixQuery;

/** discovery-worker: consumes prefix queries; emits child ranges, partition queries and entity batches. */
public final class DiscoveryWorker {
    public static final String NAME = "discovery";
    public static final String INPUT = Topics.PREFIX_QUERIES;

    /**
     * Few records per poll: each may read several pages, and a poll is committed as one transaction, so a poll
     * holds up to 16 x page budget x page size rows in memory (80,000 with the defaults).
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
