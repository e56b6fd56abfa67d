package io.tablescan.discovery;

import io.tablescan.jobs.StepItems;
import io.tablescan.items.WorkItems;
import io.tablescan.job.Jobs;
import io.tablescan.job.ReadStep;
import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.ItemHandler;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.scanner.PageReader;
import io.tablescan.scanner.PrefixStep;
import io.tablescan.scanner.SerialStep;
import io.tablescan.scanner.StepResult;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.spi.KeyRange;

/** Runs one bounded step over a PartitionKey range: its rows as batches, its discoveries as new items. */
public final class PrefixQueryHandler implements ItemHandler<PrefixQuery> {
    private final WorkerSettings settings;

    public PrefixQueryHandler(WorkerSettings settings) {
        this.settings = settings;
    }

    @Override
    public Class<PrefixQuery> type() {
        return PrefixQuery.class;
    }

    @Override
    public Result handle(PrefixQuery item, ItemContext context) {
        ScanSpec spec = item.getSpec();
        PageReader reader = StepItems.reader(settings.sourceStore(spec, context), spec);
        KeyRange range = WorkItems.range(item);
        StepResult step = spec.getStrategy() == ScanStrategy.SERIAL
                ? SerialStep.run(range, spec.getPageBudget(), reader)
                : PrefixStep.run(range, spec.getPageBudget(), reader);
        return Jobs.of(spec).afterRead(new ReadStep(spec, range, step, item.getDepth(), item.getContinuedPartition(),
                context, settings));
    }
}
