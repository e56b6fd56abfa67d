package io.tablescan.runner;

import io.tablescan.rate.Direction;
import io.tablescan.rate.ScanRates;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How {@link CopyRun} runs a scan; every option has a default ({@link #defaults()}) and a {@code with} method.
 *
 * @param env the settings a user sets for the in-process workers too: sink plugins ({@code TABLESCAN_PLUGINS})
 *     and injected faults ({@code TABLESCAN_FAULT_RATE}); default: the process's environment
 * @param timeout how long the scan may take; default 7 days
 * @param view the progress shown; default none
 * @param interval how often {@code each} is called; null: the view's interval
 * @param each called with the scan's totals every interval; null: the view's progress
 * @param stop asked while the scan runs: true stops it (Ctrl-C), and the scan is cancelled; default never
 * @param seeder seeds the scan on the Kafka it runs on; default {@code ScanStarter::start} (its root item)
 * @param ended reads the scan's Kafka once the scan has ended, before its broker or namespace goes; default none
 * @param broker the embedded broker to run on when there is no cluster (one started early); null: start one
 * @param state the local job's state folder (embedded broker only): its broker's data is kept there and a rerun
 *     resumes the scan; Ctrl-C then keeps the scan resumable instead of cancelling it; null: nothing kept
 */
public record RunOptions(Map<String, String> env, Duration timeout, RunView view, Duration interval,
        Consumer<ScanTotals> each, BooleanSupplier stop, Seeder seeder, Ended ended, BrokerStart broker,
        JobState state, Map<String, Long> limits) {

    /** Seeds a scan on the Kafka it runs on: its root item, or an import's batches. */
    @FunctionalInterface
    public interface Seeder {
        void seed(KafkaSettings kafka, ScanSpec spec);

        /**
         * Whether the seed leaves items for the workers; false when every item was handled before it (a small
         * local copy's, see {@code FirstItems}): the pipeline then starts only its ledger.
         */
        default boolean leavesItems() {
            return true;
        }

        /** This seeder, then {@code after} once it has seeded. */
        default Seeder then(Runnable after) {
            Seeder seeder = this;
            return new Seeder() {
                @Override
                public void seed(KafkaSettings kafka, ScanSpec spec) {
                    seeder.seed(kafka, spec);
                    after.run();
                }

                @Override
                public boolean leavesItems() {
                    return seeder.leavesItems();
                }
            };
        }
    }

    /** What a command reads of the scan's Kafka once it has ended, before its broker or namespace goes. */
    @FunctionalInterface
    public interface Ended {
        void read(KafkaSettings kafka, ScanTotals totals);
    }

    /** The default seeder: the scan's root item and first event. */
    public static final Seeder ROOT = io.tablescan.control.ScanStarter::start;

    public RunOptions {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(view, "view");
        Objects.requireNonNull(stop, "stop");
        Objects.requireNonNull(seeder, "seeder");
    }

    public static RunOptions defaults() {
        return new RunOptions(System.getenv(), Duration.ofDays(7), RunView.SILENT, null, null, () -> false,
                ROOT, null, null, null, null);
    }

    public RunOptions withEnv(Map<String, String> value) {
        return new RunOptions(value, timeout, view, interval, each, stop, seeder, ended, broker, state, limits);
    }

    public RunOptions withTimeout(Duration value) {
        return new RunOptions(env, value, view, interval, each, stop, seeder, ended, broker, state, limits);
    }

    public RunOptions withView(RunView value) {
        return new RunOptions(env, timeout, value, interval, each, stop, seeder, ended, broker, state, limits);
    }

    /** Calls {@code value} with the totals every {@code every} instead of the view's progress. */
    public RunOptions withProgress(Duration every, Consumer<ScanTotals> value) {
        return new RunOptions(env, timeout, view, every, value, stop, seeder, ended, broker, state, limits);
    }

    public RunOptions withStop(BooleanSupplier value) {
        return new RunOptions(env, timeout, view, interval, each, value, seeder, ended, broker, state, limits);
    }

    public RunOptions withSeeder(Seeder value) {
        return new RunOptions(env, timeout, view, interval, each, stop, value, ended, broker, state, limits);
    }

    public RunOptions withEnded(Ended value) {
        return new RunOptions(env, timeout, view, interval, each, stop, seeder, value, broker, state, limits);
    }

    public RunOptions withBroker(BrokerStart value) {
        return new RunOptions(env, timeout, view, interval, each, stop, seeder, ended, value, state, limits);
    }

    public RunOptions withState(JobState value) {
        return new RunOptions(env, timeout, view, interval, each, stop, seeder, ended, broker, value, limits);
    }

    /**
     * This run's caps, those of {@code spec} as this run's options made it: a resumed local job sets them on its
     * scan, since caps tune a run and are not part of the job (without this, a resumed scan keeps its caps).
     */
    public RunOptions withCapsOf(ScanSpec spec) {
        Map<String, Long> caps = Map.of(Direction.READ.key, ScanRates.cap(spec, Direction.READ), Direction.WRITE.key,
                ScanRates.cap(spec, Direction.WRITE));
        return new RunOptions(env, timeout, view, interval, each, stop, seeder, ended, broker, state, caps);
    }

    Duration progressInterval() {
        return interval != null ? interval : view.interval();
    }

    Consumer<ScanTotals> progress() {
        return each != null ? each : view::progress;
    }
}
