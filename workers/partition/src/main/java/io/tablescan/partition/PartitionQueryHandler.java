package io.tablescan.partition;

import io.tablescan.items.ComparingSteps;
import io.tablescan.items.StepItems;
import io.tablescan.items.WorkItems;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.scanner.PartitionStep;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.ScanSpec;

/** Pages one partition for a bounded number of pages: its rows as batches, its remainder as a new item. */
public final class PartitionQueryHandler implements ItemHandler<PartitionQuery> {
    private final WorkerSettings settings;
    private final ComparingSteps comparing;

    public PartitionQueryHandler(WorkerSettings settings) {
        this.settings = settings;
        this.comparing = new ComparingSteps(settings);
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
                StepItems.reader(settings.store(spec.getSource().getAccount(), context), spec));
        if (ComparingSteps.applies(spec)) {
            return comparing.result(spec, partition, step, item.getDepth(), item.getContinuedPartition(), context);
        }
        return StepItems.result(spec, step, item.getDepth(), item.getContinuedPartition());
    }
}
