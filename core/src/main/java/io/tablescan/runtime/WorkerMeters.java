package io.tablescan.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Metrics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A worker's meters, recorded when a transaction commits, so they count what is durably done. */
final class WorkerMeters {
    private final String worker;
    private final Counter rowsRead;
    private final Counter rowsWritten;
    private final Counter committed;
    private final Counter aborted;
    private final Counter linked;
    /** Item counters by kind and outcome: looked up once, not built for every item. */
    private final Map<String, Counter> items = new ConcurrentHashMap<>();

    /** Items inside a handler now, per worker kind, summed over the instances in this process. */
    private static final Map<String, AtomicInteger> IN_FLIGHT = new ConcurrentHashMap<>();

    static AtomicInteger inFlight(String worker) {
        return IN_FLIGHT.computeIfAbsent(worker, w -> {
            AtomicInteger count = new AtomicInteger();
            Gauge.builder("tablescan.items.in.flight", count, AtomicInteger::get).tag("worker", w)
                    .description("Work items being processed now").register(Metrics.globalRegistry);
            return count;
        });
    }

    WorkerMeters(String worker, ItemKind input) {
        this.worker = worker;
        rowsRead = counter("tablescan.rows.read", "Rows read from source tables");
        rowsWritten = counter("tablescan.rows.written", "Rows written to destination tables");
        committed = Counter.builder("tablescan.transactions").tags("worker", worker, "outcome", "committed")
                .description("Kafka transactions (one per poll)").register(Metrics.globalRegistry);
        aborted = Counter.builder("tablescan.transactions").tags("worker", worker, "outcome", "aborted")
                .description("Kafka transactions (one per poll)").register(Metrics.globalRegistry);
        linked = counter("tablescan.chain.links",
                "Continuations a worker went on with itself, without fetching them from Kafka");
        if (input != null) { // series that exist from the start read 0, not "no data"
            String kind = input.name().toLowerCase(Locale.ROOT);
            for (String outcome : new String[] {"done", "failed", "skipped"}) {
                item(kind, outcome, 0);
            }
            deadLettered(kind, 0);
            deadLettered("unreadable", 0);
        }
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).tag("worker", worker).description(description).register(Metrics.globalRegistry);
    }

    void committed(List<ItemProcessor.Outcome> outcomes) {
        committed.increment();
        counted(outcomes);
    }

    /** The items and rows of {@code outcomes}, committed (by this worker's transaction, or another's). */
    void counted(List<ItemProcessor.Outcome> outcomes) {
        for (ItemProcessor.Outcome outcome : outcomes) {
            if (outcome.scanId() == null) {
                deadLettered("unreadable");
                continue;
            }
            String kind = outcome.kind().name().toLowerCase(Locale.ROOT);
            if (outcome.skipped()) {
                item(kind, "skipped");
            } else if (outcome.error() != null) {
                item(kind, "failed");
                deadLettered(kind);
            } else {
                item(kind, "done");
                rowsRead.increment(outcome.result().rowsRead());
                rowsWritten.increment(outcome.result().rowsWritten());
                outcome.result().emitted().forEach(emitted -> item(ItemKind.of(emitted).name().toLowerCase(Locale.ROOT), "emitted"));
            }
        }
    }

    void linked() {
        linked.increment();
    }

    void aborted() {
        aborted.increment();
    }

    private void item(String kind, String outcome) {
        item(kind, outcome, 1);
    }

    private void item(String kind, String outcome, int n) {
        items.computeIfAbsent(kind + " " + outcome, key -> Counter.builder("tablescan.items")
                .tags("worker", worker, "kind", kind, "outcome", outcome)
                .description("Work items by kind and outcome (emitted, done, failed, skipped)")
                .register(Metrics.globalRegistry)).increment(n);
    }

    private void deadLettered(String kind) {
        deadLettered(kind, 1);
    }

    private void deadLettered(String kind, int n) {
        Counter.builder("tablescan.dead.letters").tags("worker", worker, "kind", kind)
                .description("Records parked in the dead-letter topic").register(Metrics.globalRegistry).increment(n);
    }
}
