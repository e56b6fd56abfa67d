package io.tablescan.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.azure.RestTableReader.WireRow;
import io.tablescan.azure.RestTableReader.WireValue;
import io.tablescan.azure.RowJson;
import io.tablescan.backup.ExportFiles;
import io.tablescan.backup.FolderStore;
import io.tablescan.backup.Manifest;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.DeleteJob;
import io.tablescan.schema.DifferenceKind;
import io.tablescan.cli.DifferenceReport;
import io.tablescan.local.FreePorts;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.DeadLetters;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.Topics;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.SinkRef;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The scans the kill tests run on a {@link CrashIT.Cluster} whose workers they kill with SIGKILL: each writes its
 * tables, starts, and checks afterwards, through another reader than the one that wrote, that nothing was lost or
 * counted twice. {@link KillMatrixIT} runs them all at once on small tables under one kill schedule; the full-size
 * runs, one scan to a cluster, are in the release tier ({@link CrashIT}, {@link VerifyCrashIT}, {@link ExportCrashIT},
 * {@link DeleteIT}).
 */
final class KillCases {
    private KillCases() {}

    /** One scan of the kill tests: its tables written before the cluster starts, its spec, what must hold after. */
    interface Case {
        /** Writes the scan's tables. */
        void prepare() throws Exception;

        /** The scan's spec, its topics made on the cluster. */
        ScanSpec spec(CrashIT.Cluster cluster) throws Exception;

        /** What must hold once the scan has ended with these totals. */
        void check(CrashIT.Cluster cluster, ScanTotals ended) throws Exception;
    }

    /**
     * Runs {@code scan} alone on a cluster of its own, killing a worker each time it has moved on by {@code step} rows
     * (by {@code progress}), the kinds in {@code order} first, at most {@code most} times; checks it and returns the
     * kills.
     */
    static List<String> runAlone(String clusterName, Case scan, int most, long step,
            java.util.function.ToLongFunction<ScanTotals> progress, List<String> order) throws Exception {
        scan.prepare();
        try (CrashIT.Cluster cluster = new CrashIT.Cluster(clusterName)) {
            ScanSpec spec = scan.spec(cluster);
            io.tablescan.control.ScanStarter.start(cluster.kafka, spec);
            List<String> kills = cluster.killDuring(spec.getScanId(), most, step, progress, order);
            scan.check(cluster, ScanAwait.ended(cluster.kafka, spec.getScanId(), Duration.ofMinutes(6)));
            return kills;
        }
    }

    /** A copy of {@code rows} rows to another table, compared row by row afterwards. */
    record Copy(String name, int rows) implements Case {
        @Override
        public void prepare() {
            SampleTable.write(LocalServices.store(), name + "source", SampleTable.rows(rows), 16);
        }

        @Override
        public ScanSpec spec(CrashIT.Cluster cluster) {
            return ScanSpecs.copy().from(new TableRef("emulator", name + "source"))
                    .to(new TableRef("emulator", name + "copy")).pageSize(200).strategy(ScanStrategy.PREFIX).build();
        }

        @Override
        public void check(CrashIT.Cluster cluster, ScanTotals t) {
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsRead()).isEqualTo(rows);
            assertThat(t.rowsWritten()).isEqualTo(rows);
            assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
            var store = LocalServices.store();
            TableComparer.Result check = TableComparer.compare(store, name + "source", store, name + "copy");
            assertThat(check.examples()).isEmpty();
            assertThat(check.equal()).isTrue();
        }
    }

    /**
     * A sink that holds its rows in memory until its commit point (test-only {@link BufferingSink}): a worker
     * killed loses what it held, but not a row of an item it committed, and the others are replayed.
     */
    record Buffering(String name, int rows) implements Case {
        @Override
        public void prepare() {
            SampleTable.write(LocalServices.store(), name + "source", SampleTable.rows(rows), 16);
        }

        @Override
        public ScanSpec spec(CrashIT.Cluster cluster) {
            return ScanSpecs.copy().from(new TableRef("emulator", name + "source"))
                    .sink(new SinkRef("buffering", "emulator", name + "copy", Map.of())).pageSize(200).build();
        }

        @Override
        public void check(CrashIT.Cluster cluster, ScanTotals t) {
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsWritten()).isEqualTo(rows);
            assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
            RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
            TableComparer.Result check = TableComparer.compare(rest, name + "source", rest, name + "copy");
            assertThat(check.examples()).isEmpty();
            assertThat(check.destinationRows()).isEqualTo(rows);
        }
    }

    /**
     * Rows published to a topic, odd keys among them: a plain read_committed consumer reads each row once, exactly as
     * the service itself sends it (raw REST, read by a JSON parser of the test's own).
     */
    record Topic(String name, int rows) implements Case {
        private List<Row> all() {
            List<Row> all = new ArrayList<>(SampleTable.rows(rows));
            for (String pk : OddKeys.KEYS) {
                for (String rk : OddKeys.KEYS) {
                    all.add(new Row(pk, rk, List.of(new RowProperty("V", EdmType.STRING, pk + "/" + rk))));
                }
            }
            return all;
        }

        @Override
        public void prepare() {
            SampleTable.write(LocalServices.store(), name + "source", all(), 16);
        }

        @Override
        public ScanSpec spec(CrashIT.Cluster cluster) {
            return ScanSpecs.copy().from(new TableRef("emulator", name + "source"))
                    .sink(new SinkRef("topic", null, name + "-rows", Map.of())).pageSize(200).build();
        }

        @Override
        public void check(CrashIT.Cluster cluster, ScanTotals t) throws Exception {
            int expectedRows = all().size();
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsWritten()).isEqualTo(expectedRows);
            Map<String, WireRow> published = new HashMap<>();
            int records = 0;
            Map<String, Object> config = new HashMap<>(Map.of("bootstrap.servers", cluster.kafka.bootstrapServers(),
                    "isolation.level", "read_committed", "max.partition.fetch.bytes", "9000000"));
            try (var consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = Topics.partitions(consumer, name + "-rows");
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
                Topics.readToEnd(consumer, consumer.endOffsets(partitions), all::add);
                for (ConsumerRecord<byte[], byte[]> record : all) {
                    records++;
                    assertThat(DeadLetters.header(record.headers(), "scanId")).isEqualTo(t.scanId());
                    WireRow row = RestTableReader.parse(("{\"value\":[" + new String(record.value(), UTF_8) + "]}")
                            .getBytes(UTF_8)).getFirst();
                    String key = new String(record.key(), UTF_8);
                    assertThat(key).isEqualTo(keysJson(row.partitionKey(), row.rowKey()));
                    published.put(key, row);
                }
            }
            assertThat(records).as("each row once").isEqualTo(expectedRows);
            assertThat(published).hasSize(expectedRows);
            // Each value exactly as the service sends it, doubles compared as the doubles they name.
            Iterator<WireRow> source = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString())
                    .rows(name + "source");
            int compared = 0;
            while (source.hasNext()) {
                WireRow expected = source.next();
                assertThat(normalized(published.get(keysJson(expected.partitionKey(), expected.rowKey()))))
                        .isEqualTo(normalized(expected));
                compared++;
            }
            assertThat(compared).isEqualTo(expectedRows);
        }

        private static String keysJson(String partitionKey, String rowKey) {
            return new String(RowJson.keysJson(new Row(partitionKey, rowKey, List.of())), UTF_8);
        }

        /** A row with each Double's text as Java's form of the double it names (1E1 and 10.0 name the same). */
        private static WireRow normalized(WireRow row) {
            Map<String, WireValue> values = new TreeMap<>();
            row.properties().forEach((name, v) -> values.put(name, v.type().equals("Edm.Double")
                    ? new WireValue(v.type(), Double.toString(Double.parseDouble(v.text()))) : v));
            return new WireRow(row.partitionKey(), row.rowKey(), values);
        }
    }

    /**
     * A verify of a destination with rows missing, different and extra: its counts and its differences topic stay
     * exact, each difference once. Then the same verify and a mirror seeded with start on the same workers.
     */
    static final class Verify implements Case {
        private final String name;
        private final int rows;
        private final int extra;
        private int missing;
        private int different;

        Verify(String name, int rows, int extra) {
            this.name = name;
            this.rows = rows;
            this.extra = extra;
        }

        @Override
        public void prepare() {
            var store = LocalServices.store();
            List<Row> source = SampleTable.rows(rows);
            SampleTable.write(store, name + "src", source, 16);
            List<Row> dest = new ArrayList<>();
            for (int i = 0; i < source.size(); i++) {
                Row row = source.get(i);
                if (i % 97 == 0) {
                    missing++; // left out of the destination
                } else if (i % 89 == 0) {
                    different++;
                    dest.add(new Row(row.partitionKey(), row.rowKey(),
                            List.of(new RowProperty("Id", EdmType.STRING, "x"))));
                } else {
                    dest.add(row);
                }
            }
            for (int i = 0; i < extra; i++) {
                dest.add(new Row("zz-extra", String.format("r%04d", i), List.of()));
            }
            SampleTable.write(store, name + "dst", dest, 16);
        }

        @Override
        public ScanSpec spec(CrashIT.Cluster cluster) {
            return ScanSpecs.verify().from(new TableRef("emulator", name + "src"))
                    .to(new TableRef("emulator", name + "dst")).pageSize(200).strategy(ScanStrategy.PREFIX).build();
        }

        @Override
        public void check(CrashIT.Cluster cluster, ScanTotals t) throws Exception {
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsRead()).isEqualTo(rows);
            assertThat(t.counter(Counters.MISSING)).isEqualTo(missing);
            assertThat(t.counter(Counters.DIFFERENT)).isEqualTo(different);
            assertThat(t.counter(Counters.EXTRA)).isEqualTo(extra);
            assertThat(t.rowsWritten()).isZero();
            DifferenceReport found = DifferenceReport.read(cluster.kafka, t.scanId(), null);
            assertThat(found.count(DifferenceKind.MISSING)).isEqualTo(missing);
            assertThat(found.count(DifferenceKind.DIFFERENT)).isEqualTo(different);
            assertThat(found.count(DifferenceKind.EXTRA)).isEqualTo(extra);

            // The same verify seeded with start on the cluster's workers, followed to its end with a report.
            Path report = Files.createTempFile("verify", ".jsonl");
            Cli.Run run = Cli.run(cluster.env, "start", "--verify", "--kafka", cluster.kafka.bootstrapServers(),
                    "--source-account", "emulator", "--source-table", name + "src", "--dest-account", "emulator",
                    "--dest-table", name + "dst", "--wait", "--report", report.toString());
            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(UserError.DIFFERENT);
            assertThat(run.out()).contains(String.format("different: %,d missing, %,d different, %,d extra", missing,
                    different, extra));
            assertThat(Files.readAllLines(report)).hasSize(missing + different + extra);
            Files.delete(report);

            // A mirror seeded with start on the same workers: the destination ends equal to the source, as the
            // JavaScript SDK reads both, having written only the rows that differed and deleted the extra ones.
            Cli.Run mirror = Cli.run(cluster.env, "start", "--mirror", "--kafka", cluster.kafka.bootstrapServers(),
                    "--source-account", "emulator", "--source-table", name + "src", "--dest-account", "emulator",
                    "--dest-table", name + "dst", "--wait");
            assertThat(mirror.exitCode()).as(mirror.out() + mirror.err()).isZero();
            assertThat(mirror.out()).contains(String.format("mirror: %,d rows were missing, %,d different (%,d "
                    + "written); ", missing, different, missing + different))
                    .contains(String.format("%,d extra, %,d deleted", extra, extra)).doesNotContain("next --since");
            assertThat(FidelityIT.client("dump", name + "dst")).isEqualTo(FidelityIT.client("dump", name + "src"));
        }
    }

    /**
     * An export's stage 1 (rows to a topic keyed by partition), then stage 2 twice into files, the same files each
     * time with every row in exactly one; an import of them equals the source, and so does an import killed with
     * SIGKILL mid-way (slowed by a write cap so the kill lands while it writes) and run again.
     */
    static final class Export implements Case {
        private final String name;
        private final int rows;
        private final Path folder;
        private String topic;

        Export(String name, int rows, Path folder) {
            this.name = name;
            this.rows = rows;
            this.folder = folder;
        }

        @Override
        public void prepare() {
            SampleTable.write(LocalServices.store(), name + "source", SampleTable.rows(rows), 16);
        }

        @Override
        public ScanSpec spec(CrashIT.Cluster cluster) throws Exception {
            var draft = ScanSpecs.copy().from(new TableRef("emulator", name + "source")).pageSize(200).build();
            topic = Namespace.DEFAULT.topic("export-" + draft.getScanId());
            try (Admin admin = cluster.kafka.newAdmin()) {
                Topics.ensure(admin, List.of(new NewTopic(topic, Optional.of(6), Optional.empty())),
                        Duration.ofSeconds(60));
            }
            return ScanSpec.newBuilder(draft).setSink(io.tablescan.sink.SinkRefs.toWire(
                    new SinkRef("topic", null, topic, Map.of("key", "partition")))).build();
        }

        @Override
        public void check(CrashIT.Cluster cluster, ScanTotals t) throws Exception {
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsRead()).isEqualTo(rows);

            Manifest manifest = ExportFiles.write(cluster.kafka, topic, t, new FolderStore(folder));
            // a rerun of stage 2 over the same topic writes the same files (under its own run's names)
            Manifest again = ExportFiles.write(cluster.kafka, topic, t, new FolderStore(folder.resolve("again")));
            assertThat(again.files()).hasSameSizeAs(manifest.files());
            for (int i = 0; i < manifest.files().size(); i++) {
                Manifest.DataFile one = manifest.files().get(i);
                Manifest.DataFile two = again.files().get(i);
                assertThat(List.of(two.rows(), two.bytes(), two.sha256()))
                        .isEqualTo(List.of(one.rows(), one.bytes(), one.sha256()));
                assertThat(two.name().replaceAll("-[0-9a-f]+\\.jsonl\\.gz$", ""))
                        .isEqualTo(one.name().replaceAll("-[0-9a-f]+\\.jsonl\\.gz$", ""));
            }
            assertThat(manifest.totalRows()).isEqualTo(rows);
            Set<String> keys = new HashSet<>();
            for (Manifest.DataFile file : manifest.files()) {
                for (String line : BackupIT.gunzip(Files.readAllBytes(folder.resolve(file.name()))).lines().toList()) {
                    Row row = RowJson.parse(line.getBytes(UTF_8));
                    assertThat(keys.add(row.partitionKey() + "\u0000" + row.rowKey())).as("row once").isTrue();
                }
            }
            assertThat(keys).hasSize(rows);

            var store = LocalServices.store();
            Cli.Run in = Cli.run("import", "--from", folder.toString(), "--dest-connection-string",
                    LocalServices.azurite().connectionString(), "--dest-table", name + "restored");
            assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
            assertThat(TableComparer.compare(store, name + "source", store, name + "restored").differences()).isZero();

            // An import killed with SIGKILL once it has written rows, then run again: the table converges.
            try (ChildProcesses children = new ChildProcesses(name + "-import-crash")) {
                Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_EMULATOR_CONNECTION_STRING",
                        LocalServices.azurite().connectionString());
                Process importer = children.start("import", env, "import", "--from", folder.toString(),
                        "--dest-account", "emulator", "--dest-table", name + "killed", "--max-write-rate",
                        Integer.toString(Math.max(500, rows / 10)));
                assertThat(FreePorts.await(() -> holdsRows(name + "killed"), Duration.ofMinutes(3), importer::isAlive))
                        .as("the import wrote rows").isTrue();
                assertThat(importer.isAlive()).as("the import still running when killed").isTrue();
                importer.destroyForcibly();
                assertThat(importer.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            Cli.Run rerun = Cli.run("import", "--from", folder.toString(), "--dest-connection-string",
                    LocalServices.azurite().connectionString(), "--dest-table", name + "killed");
            assertThat(rerun.exitCode()).as(rerun.out() + rerun.err()).isZero();
            var check = TableComparer.compare(store, name + "source", store, name + "killed");
            assertThat(check.differences()).as(check.examples().toString()).isZero();
            assertThat(check.destinationRows()).isEqualTo(rows);
        }

        private static boolean holdsRows(String table) {
            var store = LocalServices.store();
            try {
                return store.tableExists(table)
                        && !store.query(table, KeyRange.ALL, new QueryOptions(1, List.of(), null), null).rows().isEmpty();
            } catch (RuntimeException e) {
                return false;
            }
        }
    }

    /**
     * A delete by filter: exactly the selected rows gone and every other row as it was, as the JavaScript SDK reads the
     * table before and after, each row read and deleted counted once. Then, on the same workers, a row written after
     * the scan read it is kept ({@link #keptAfterRead}). Run it last: that part stops the copy-workers.
     */
    static final class Delete implements Case {
        private static final Predicate<Row> SELECTED = r -> DeleteIT.major(r) < 10;
        private final String name;
        private final int rows;
        private final int keptRows;
        private Set<String> selected;
        private List<String> before;
        private List<Row> kept;

        /** A delete of about half of {@code rows} rows; then one of {@code keptRows} rows whose one row is kept. */
        Delete(String name, int rows, int keptRows) {
            this.name = name;
            this.rows = rows;
            this.keptRows = keptRows;
        }

        @Override
        public void prepare() throws Exception {
            List<Row> written = SampleTable.rows(rows);
            SampleTable.write(LocalServices.store(), name + "table", written, 16);
            selected = DeleteIT.keys(written, SELECTED);
            before = DeleteIT.dump(name + "table");
            assertThat(before).hasSize(rows);
            kept = SampleTable.rows(keptRows);
            SampleTable.write(LocalServices.store(), name + "kept", kept, 16);
        }

        @Override
        public ScanSpec spec(CrashIT.Cluster cluster) {
            return ScanSpecs.of(Jobs.named(DeleteJob.NAME), Map.of()).from(new TableRef("emulator", name + "table"))
                    .filter("Major lt 10").pageSize(200).strategy(ScanStrategy.PREFIX).build();
        }

        @Override
        public void check(CrashIT.Cluster cluster, ScanTotals t) throws Exception {
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsRead()).isEqualTo(selected.size());
            assertThat(t.counter(Counters.DELETED)).as("each selected row's delete counted once")
                    .isEqualTo(selected.size());
            assertThat(t.counter(Counters.SKIPPED)).isZero();
            assertThat(t.itemsDone()).isEqualTo(t.itemsEmitted());
            assertThat(DeleteIT.dump(name + "table")).as("exactly the selected rows gone, the others as they were")
                    .isEqualTo(DeleteIT.without(before, selected::contains));
            keptAfterRead(cluster);
        }

        /**
         * The copy-workers stopped while the readers read a delete's selection, so its delete batches wait in Kafka; a
         * selected row is then written by the JavaScript SDK and a copy-worker started: that row is kept and counted as
         * skipped (each delete is conditional on the ETag read), every other selected row is gone, the rest untouched.
         */
        private void keptAfterRead(CrashIT.Cluster cluster) throws Exception {
            String table = name + "kept";
            Set<String> chosen = DeleteIT.keys(kept, r -> DeleteIT.major(r) < 15);
            Row changed = kept.stream().filter(r -> DeleteIT.major(r) < 15).findFirst().orElseThrow();
            String changedKey = changed.partitionKey() + "\u0000" + changed.rowKey();
            for (String copy : List.of("copy-1", "copy-2")) { // stopped, not killed: they leave their group at once
                Process process = cluster.workers.get(copy);
                process.destroy(); // a killed member would hold its partitions until the group's session timeout
                assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(copy + " stopped").isTrue();
            }
            Cli.Run start = Cli.run(cluster.env, "start", "--delete", "--kafka", cluster.kafka.bootstrapServers(),
                    "--source-account", "emulator", "--source-table", table, "--filter", "Major lt 15",
                    "--page-size", "100", "--yes");
            assertThat(start.exitCode()).as(start.out() + start.err()).isZero();
            String scanId = start.printed().getLast();
            // Every selected row read: its delete batch is in Kafka, committed with the read.
            assertThat(ScanAwait.until(cluster.kafka, scanId, s -> s.rowsRead() == chosen.size(), Duration.ofMinutes(3))
                    .rowsRead()).as("the selection read before the row is written").isEqualTo(chosen.size());
            List<String> read = DeleteIT.dump(table);
            FidelityIT.client("put", table, new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(
                    Map.of("partitionKey", changed.partitionKey(), "rowKey", changed.rowKey(), "Major", 99)));
            String changedLine = DeleteIT.dump(table).stream().filter(l -> DeleteIT.key(l).equals(changedKey))
                    .findFirst().orElseThrow();
            cluster.workers.put("copy-1", cluster.children.start("copy-1", cluster.env, "worker", "copy"));

            ScanTotals t = ScanAwait.ended(cluster.kafka, scanId, Duration.ofMinutes(4));
            assertThat(t.state()).as(t.errors().toString()).isEqualTo(ScanState.COMPLETED);
            assertThat(t.rowsRead()).isEqualTo(chosen.size());
            assertThat(t.counter(Counters.DELETED)).isEqualTo(chosen.size() - 1);
            assertThat(t.counter(Counters.SKIPPED)).as("the row written after it was read").isEqualTo(1);
            List<String> expected = new ArrayList<>(DeleteIT.without(read, k -> chosen.contains(k)
                    && !k.equals(changedKey)));
            expected.replaceAll(line -> DeleteIT.key(line).equals(changedKey) ? changedLine : line);
            assertThat(DeleteIT.dump(table)).isEqualTo(expected);
        }
    }
}
