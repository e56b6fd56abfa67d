package io.tablescan.discovery;

import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerLauncher;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.PrefixQuery;

/** discovery-worker: consumes prefix queries; emits child ranges, partition queries and entity batches. */
public final class DiscoveryWorker {
    /** Few records per poll: each may read several pages, and a poll is committed as one transaction. */
    static final int MAX_POLL_RECORDS = 32;

    private DiscoveryWorker() {}

    public static WorkerRuntime<PrefixQuery> create(WorkerSettings settings) {
        return WorkerRuntime.create(settings, "discovery", Topics.PREFIX_QUERIES, new PrefixQueryHandler(settings),
                MAX_POLL_RECORDS);
    }

    public static void main(String[] args) {
        System.exit(WorkerLauncher.run("discovery", DiscoveryWorker::create));
    }
}
