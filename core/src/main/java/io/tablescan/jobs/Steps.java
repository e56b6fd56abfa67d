package io.tablescan.jobs;

import io.tablescan.job.ReadStep;
import io.tablescan.runtime.ItemHandler;

/** What read steps of every job share. */
final class Steps {
    private Steps() {}

    /** The step's handed-off work as items, and its rows as entity batches if {@code emitRows}. */
    static ItemHandler.Result read(ReadStep r, boolean emitRows) {
        return StepItems.result(r.spec(), r.step(), r.depth(), r.continued(), emitRows);
    }
}
