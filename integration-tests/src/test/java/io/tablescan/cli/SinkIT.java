package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.Row;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.table.TableStore;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A scan that names a sink other than a table, through a real embedded KRaft broker and Azurite with the
 * three workers in this JVM: the copy-worker finds the test-only {@link CountSink} by its type alone.
 */
class SinkIT {
    static final TableStore STORE = LocalServices.store();

    @Test
    void aScanNamingTheCountSinkCountsEveryRowExactlyOnce() {
        List<Row> rows = new ArrayList<>(SampleTable.rows(2_000));
        Random random = new Random(11);
        for (int i = 0; i < 1_500; i++) {
            rows.add(SampleTable.row("big", String.format("%05d", i), random)); // handed off as partition queries
        }
        SampleTable.write(STORE, "countsource", rows, 8);
        ScanSpec spec = ScanSpec.newBuilder(ScanSpecs.copy().from(new TableRef("azurite", "countsource"))
                .pageSize(200).strategy(ScanStrategy.PREFIX).build())
                .setSink(SinkRefs.toWire(new SinkRef("count", null, "countsource-tally", Map.of("note", "test"))))
                .build();

        CopyRun.Outcome outcome = CopyRun.run(LocalServices.broker().bootstrapServers(),
                new Accounts(name -> null).register("azurite", STORE), spec,
                new ProgressPrinter(new PrintStream(java.io.OutputStream.nullOutputStream())), Duration.ofMinutes(5));

        ScanTotals totals = outcome.totals();
        assertThat(totals.complete()).as("scan complete").isTrue();
        assertThat(totals.itemsFailed()).isZero();
        assertThat(totals.itemsDone()).isEqualTo(totals.itemsEmitted());
        assertThat(totals.rowsRead()).isEqualTo(rows.size());
        assertThat(totals.rowsWritten()).as("the ledger's rows written").isEqualTo(rows.size());
        Map<String, AtomicInteger> counts = CountSink.counts("countsource-tally");
        assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(
                rows.stream().map(r -> CountSink.key(r.partitionKey(), r.rowKey())).toList());
        assertThat(counts.values()).as("every row counted once").allSatisfy(n -> assertThat(n).hasValue(1));
        assertThat(CountSink.prepares("countsource-tally")).as("one sink, prepared once").isEqualTo(1);
    }
}
