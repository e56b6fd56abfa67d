package io.tablescan.partition;

import io.tablescan.jobs.StepItems;
import io.tablescan.items.WorkItems;
import io.tablescan.job.Jobs;
import io.tablescan.job.ReadStep;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.scanner.PartitionStep;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.ScanSpec;

/** Pages one partition for a bounded number of pages: its rows as batches, its remainder as a new item. */
public final class PartitionQueryHandler implements ItemHandler<PartitionQuery> {
    private final WorkerSettings settings;

    public PartitionQueryHandler(WorkerSettings settings) {
        this.settings = settings;
    }

    @Override
    public Class<PartitionQuery> type() {
        return PartitionQuery.class;
    }

    /** A partition's remainder is its chain's next link (see the runtime's {@code LocalChains}). */
    @Override
    public boolean continuesChains() {
        return true;
    }

    @Override
    public Result handle(PartitionQuery item, ItemContext context) {
        ScanSpec spec = item.getSpec();
        var partition = WorkItems.partition(item);
        var step = PartitionStep.run(partition, spec.getPageBudget(),
                StepItems.reader(settings.sourceStore(spec, context), spec));
        return Jobs.of(spec).afterRead(new ReadStep(spec, partition, step, item.getDepth(),
                item.getContinuedPartition(), context, settings));
    }
}
