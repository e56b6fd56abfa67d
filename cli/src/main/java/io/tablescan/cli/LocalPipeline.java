package io.tablescan.cli;

import io.tablescan.copy.CopyWorker;
import io.tablescan.discovery.DiscoveryWorker;
import io.tablescan.partition.PartitionWorker;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.runtime.WorkerSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;

/** The three workers in this process, one thread each: the local default and the tests' pipeline. */
public final class LocalPipeline implements AutoCloseable {
    private final List<WorkerRuntime<?>> runtimes = new ArrayList<>();

    private LocalPipeline() {}

    public static LocalPipeline start(WorkerSettings settings) {
        try (Admin admin = Admin.create(settings.kafka().admin())) {
            settings.ensureTopics(admin);
        }
        LocalPipeline pipeline = new LocalPipeline();
        pipeline.add("discovery", DiscoveryWorker.create(settings));
        pipeline.add("partition", PartitionWorker.create(settings));
        pipeline.add("copy", CopyWorker.create(settings));
        return pipeline;
    }

    private void add(String name, WorkerRuntime<?> runtime) {
        Thread.ofPlatform().name(name + "-worker").daemon().start(runtime);
        runtimes.add(runtime);
    }

    @Override
    public void close() {
        runtimes.parallelStream().forEach(WorkerRuntime::close);
    }
}
