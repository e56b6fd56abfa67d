package io.tablescan.job;

import io.tablescan.runtime.ItemHandler;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanTotals;
import java.util.List;
import java.util.Set;

/**
 * What a scan does with the rows it reads: copy, count, verify, mirror... One class per job (in
 * {@code io.tablescan.jobs}) holds all of it, for every caller (the local commands, {@code start}, the workers, the
 * ledger's readers). A new job plugs in with:
 * <ol>
 *   <li>a class implementing this interface: its {@link #name()} (what {@code JobRef.name} holds) and
 *       {@link #options()}; {@link #validate} with every rule on what a user asked for; {@link #afterRead}, what a
 *       read step does with the rows it read (emit entity batches, compare, count, delete); its {@link #counters()}
 *       (summed exactly, see {@code ItemHandler.Result#counters}); its {@link #summary} lines and exit code;</li>
 *   <li>its command in cli, which builds a request, validates it here, and starts a spec naming the job;</li>
 *   <li>one registration line: its class name in {@code META-INF/services/io.tablescan.job.Job} of core.</li>
 * </ol>
 * Jobs are stateless singletons: everything a call needs comes in its arguments.
 */
public interface Job {
    /** The name a spec's {@code JobRef} holds, e.g. "copy". */
    String name();

    /** The names of the options this job takes in its {@code JobRef} (none unless said). */
    default Set<String> options() {
        return Set.of();
    }

    /**
     * Refuses what this job cannot do with one line ({@link JobRequest.Refused}): every rule on its options, the same
     * for every command that starts it.
     */
    void validate(JobRequest request);

    /**
     * Sets the flags of the spec of versions before jobs had names, for the jobs that had them, so a worker of such a
     * version still runs this job (a new job leaves them false: such a worker would run a plain copy).
     */
    default void legacyFlags(ScanSpec.Builder spec) {}

    /** Whether the readers read the keys only (an empty projection): for jobs that need no property. */
    default boolean keysOnly() {
        return false;
    }

    /** Whether the job reads the destination table too: its requests are of both tables. */
    default boolean readsDestination() {
        return false;
    }

    /** Whether the job writes rows (to a table or sink); false for one that only reads. */
    default boolean writes() {
        return true;
    }

    /**
     * The table this job's delete batches delete from (a mirror's destination), with the ETags the rows were read
     * with; null when the job deletes nothing (a delete batch of it is refused).
     */
    default TableRef deletesFrom(ScanSpec spec) {
        return null;
    }

    /**
     * What a read step does with the rows it read: the items to emit (in its transaction) and its counts. It may
     * read (a destination, say) but must change nothing outside what it emits: a step is replayed after a failure,
     * and a chain's next step may run before the step before it commits and then be dropped unsent.
     */
    ItemHandler.Result afterRead(ReadStep step);

    /** The names of the job's counters, in the order its summary gives them. */
    default List<String> counters() {
        return List.of();
    }

    /**
     * Prints the scan's summary: the lines all scans share ({@link Summary}) and the job's own. Returns the exit code:
     * the scan's ({@link Summary#scanCode}) or the job's own verdict (a verify's "different").
     */
    int summary(ScanTotals t, Summary out);
}
