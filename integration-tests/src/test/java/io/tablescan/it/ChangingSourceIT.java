package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.runner.LocalPipeline;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.status.ScanTotals;
import io.tablescan.table.Accounts;
import io.tablescan.spi.TableStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Rows inserted, updated and deleted while a copy runs. The guarantee: every row present for the whole scan
 * is copied, and a row's copy is a version that existed in the source.
 */
class ChangingSourceIT {
    static final TableStore STORE = LocalServices.store();

    static String key(Row row) {
        return row.partitionKey() + "\u0000" + row.rowKey();
    }

    static Row version(Row row, int v) {
        return new Row(row.partitionKey(), row.rowKey(), List.of(new RowProperty("version", EdmType.INT32, v)));
    }

    @Test
    void rowsPresentForTheWholeScanAreCopiedAndEveryCopyIsAVersionThatExisted() throws Exception {
        List<Row> original = SampleTable.rows(10_000);
        SampleTable.write(STORE, "changingsource", original, 16);
        Random random = new Random(21);
        List<Row> shuffled = new ArrayList<>(original);
        java.util.Collections.shuffle(shuffled, random);
        List<Row> updated = shuffled.subList(0, 500);
        List<Row> deleted = shuffled.subList(500, 1_000);
        Set<String> touched = new HashSet<>();
        shuffled.subList(0, 1_000).forEach(r -> touched.add(key(r)));
        Map<String, Set<Row>> versions = new HashMap<>(); // every version a touched or new row had
        original.forEach(r -> versions.computeIfAbsent(key(r), k -> new HashSet<>()).add(r));

        TableClient client = new TableClientBuilder().connectionString(LocalServices.azurite().connectionString())
                .tableName("changingsource").buildClient();
        String bootstrap = LocalServices.broker().bootstrapServers();
        KafkaSettings kafka = KafkaSettings.of(bootstrap);
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("emulator", "changingsource"))
                .to(new TableRef("emulator", "changingcopy")).pageSize(100).strategy(ScanStrategy.PREFIX).build();
        AtomicBoolean scanning = new AtomicBoolean(true);
        int[] changes = new int[3];
        ScanTotals t;
        try (LocalPipeline pipeline = LocalPipeline.start(
                WorkerSettings.local(bootstrap, new Accounts(n -> null).register("emulator", STORE)))) {
            ScanStarter.start(kafka, spec);
            Thread mutator = Thread.ofPlatform().start(() -> {
                for (int round = 1; scanning.get() && round <= 500; round++) {
                    Row u = version(updated.get(random.nextInt(updated.size())), round);
                    versions.get(key(u)).add(u);
                    STORE.upsert("changingsource", u.partitionKey(), List.of(u));
                    changes[0]++;
                    Row d = deleted.get(round - 1);
                    client.deleteEntity(d.partitionKey(), d.rowKey());
                    changes[1]++;
                    Row n = new Row("new" + round, "r", List.of(new RowProperty("version", EdmType.INT32, round)));
                    versions.computeIfAbsent(key(n), k -> new HashSet<>()).add(n);
                    STORE.upsert("changingsource", n.partitionKey(), List.of(n));
                    changes[2]++;
                }
            });
            t = ScanAwait.ended(kafka, spec.getScanId(), Duration.ofMinutes(3));
            scanning.set(false);
            mutator.join();
        }
        assertThat(t.state()).isEqualTo(ScanState.COMPLETED);
        assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
        assertThat(t.rowsWritten()).isEqualTo(t.rowsRead());
        assertThat(changes[0]).as("updates during the scan").isPositive();

        Map<String, Row> copied = new HashMap<>();
        TableComparer.rows(STORE, "changingcopy").forEach(r -> copied.put(key(r), r));
        for (Row row : original) {
            if (!touched.contains(key(row))) {
                assertThat(normalized(copied.get(key(row)))).as("untouched row copied as is").isEqualTo(normalized(row));
            }
        }
        for (Row row : updated) {
            assertThat(copied).as("a row present for the whole scan").containsKey(key(row));
        }
        for (Row copy : copied.values()) {
            assertThat(versions.get(key(copy))).as("a copy is a version that existed").isNotNull();
            assertThat(versions.get(key(copy)).stream().map(ChangingSourceIT::normalized))
                    .contains(normalized(copy));
        }
        System.out.printf("changing source: %d updates, %d deletes, %d inserts during the scan; %d rows copied%n",
                changes[0], changes[1], changes[2], copied.size());
    }

    /** Properties in name order, so rows compare by content. */
    static Row normalized(Row row) {
        if (row == null) {
            return null;
        }
        List<RowProperty> properties = new ArrayList<>(row.properties());
        properties.sort(java.util.Comparator.comparing(RowProperty::name));
        return new Row(row.partitionKey(), row.rowKey(), properties);
    }
}
