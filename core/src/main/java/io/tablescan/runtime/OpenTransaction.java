package io.tablescan.runtime;

import io.tablescan.schema.ScanEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the worker's open Kafka transaction holds: the finished records whose outputs were sent, by scan. */
final class OpenTransaction {
    private final List<ItemProcessor.Outcome> outcomes = new ArrayList<>();
    private final Map<String, ScanEventBuilder> events = new LinkedHashMap<>();
    private long beganNanos = -1;

    boolean open() {
        return beganNanos >= 0;
    }

    void begin() {
        beganNanos = System.nanoTime();
    }

    Duration age() {
        return Duration.ofNanos(System.nanoTime() - beganNanos);
    }

    /** A finished record: its contribution to its scan's event. */
    void add(ItemProcessor.Outcome outcome) {
        outcomes.add(outcome);
        if (outcome.scanId() == null) {
            return; // an undecodable record: parked, belongs to no scan
        }
        ScanEventBuilder event = events.computeIfAbsent(outcome.scanId(), ScanEventBuilder::new);
        if (outcome.retries() != null) {
            event.retries(outcome.retries()[0], outcome.retries()[1]);
        }
        if (outcome.skipped()) {
            event.skipped(outcome.kind());
        } else if (outcome.error() != null) {
            event.failed(outcome.kind(), outcome.error());
        } else {
            event.done(outcome.kind(), outcome.depth(), outcome.result());
            outcome.result().emitted().forEach(item -> event.emitted(ItemKind.of(item)));
        }
    }

    List<ItemProcessor.Outcome> outcomes() {
        return outcomes;
    }

    /** One event per scan, summing the transaction's records. */
    List<ScanEvent> events() {
        return events.values().stream().map(ScanEventBuilder::build).toList();
    }

    void clear() {
        outcomes.clear();
        events.clear();
        beganNanos = -1;
    }
}
