package io.tablescan.bench;

import io.tablescan.backup.ExportFiles;
import io.tablescan.backup.FileFormat;
import io.tablescan.backup.FolderStore;
import io.tablescan.backup.ImportSeeder;
import io.tablescan.backup.Importer;
import io.tablescan.backup.Manifest;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.cli.UserError;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Topics;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.SinkRef;
import io.tablescan.table.Accounts;
import io.tablescan.testkit.InMemoryTableStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The export and import scenarios: the generated table exported through the embedded broker to files on local
 * disk (both stages, as {@code tablescan export} runs them), and those files imported (checked, then through
 * the embedded broker and the copy-workers, as {@code tablescan import} does it) into a destination that checks
 * every row. Files go to a temporary folder, deleted at the end.
 */
final class BackupBench implements BenchCommand.BenchRunner, AutoCloseable {
    private final EmbeddedKafkaBroker broker;
    private final GeneratedTable table;
    private final BenchCommand.Scenario scenario;
    private final int inFlight;
    private final int readInFlight;
    private final Path root;
    private Path lastExport;

    BackupBench(EmbeddedKafkaBroker broker, GeneratedTable table, BenchCommand.Scenario scenario, int inFlight,
            int readInFlight) throws IOException {
        this.broker = broker;
        this.table = table;
        this.scenario = scenario;
        this.inFlight = inFlight;
        this.readInFlight = readInFlight;
        this.root = Files.createTempDirectory("tablescan-bench-backup-");
    }

    @Override
    public BenchCommand.Run run(String scenario, String strategy, int index) throws Exception {
        if (strategy.equals("import")) {
            if (lastExport == null) {
                System.out.println("  exporting the table once to import it...");
                export(scenario, 0);
            }
            return importOnce(scenario);
        }
        return export(scenario, index, strategy.equals("export") ? FileFormat.JSONL : FileFormat.of(strategy));
    }

    private BenchCommand.Run export(String scenario, int index) throws IOException {
        return export(scenario, index, FileFormat.JSONL);
    }

    private BenchCommand.Run export(String scenario, int index, FileFormat format) throws IOException {
        // The scenario's service: none for export, 100 ms a request and an account's limits for seed-replica-export.
        InMemoryTableStore source = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, this.scenario.latency())
                .limit(this.scenario.limits());
        source.attach("source", table);
        Accounts accounts = new Accounts(alias -> null).register("source", source);
        KafkaSettings kafka = KafkaSettings.of(broker.bootstrapServers());
        ScanSpec draft = ScanSpecs.copy().from(new TableRef("source", "source")).pageSize(1000).build();
        String topic = kafka.namespace().topic("export-" + draft.getScanId());
        Path folder = root.resolve("export-" + format.label() + "-" + index);
        try (RunMeter heap = RunMeter.start(); Admin admin = kafka.newAdmin()) {
            long start = System.nanoTime();
            Topics.ensure(admin, List.of(new NewTopic(topic, Optional.of(Topics.LOCAL_PARTITIONS), Optional.empty())
                    .configs(Map.of("max.message.bytes", Integer.toString(Topics.MAX_MESSAGE_BYTES)))),
                    Duration.ofSeconds(60));
            ScanSpec spec = ScanSpec.newBuilder(draft).setSink(SinkRefs.toWire(new SinkRef("topic", null, topic,
                    Map.of("key", "partition")))).build();
            CopyRun.Outcome outcome = CopyRun.run(WorkerSettings.local(broker.bootstrapServers(), accounts, inFlight)
                    .withReadInFlight(readInFlight), spec, RunOptions.defaults().withTimeout(Duration.ofHours(6)));
            double scanned = (System.nanoTime() - start) / 1e9;
            Manifest manifest = ExportFiles.write(kafka, topic, outcome.totals(), new FolderStore(folder), "bench",
                    null, rows -> {}, format);
            double seconds = (System.nanoTime() - start) / 1e9;
            admin.deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
            if (manifest.totalRows() != table.size()) {
                throw new UserError(UserError.FAILED, "the export holds " + manifest.totalRows() + " rows, not "
                        + table.size());
            }
            long bytes = manifest.files().stream().mapToLong(Manifest.DataFile::bytes).sum();
            System.out.printf("  export: scan %.1f s, files %.1f s; %,d files, %,d bytes (%,d rows a file on average)%n",
                    scanned, seconds - scanned, manifest.files().size(), bytes,
                    manifest.totalRows() / Math.max(1, manifest.files().size()));
            if (format != FileFormat.JSONL) { // only JSON lines are imported: the others go at once
                String keep = System.getenv("TABLESCAN_BENCH_KEEP"); // a folder to copy the files to, to read them
                if (keep != null) {
                    Path kept = Files.createDirectories(Path.of(keep).resolve(folder.getFileName()));
                    try (Stream<Path> files = Files.list(folder)) {
                        for (Path file : files.toList()) {
                            Files.copy(file, kept.resolve(file.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                        }
                    }
                    System.out.println("  copied to " + kept);
                }
                deleteTree(folder);
                return new BenchCommand.Run(scenario, format.label(), manifest.totalRows(), seconds, source.requests(),
                        heap.megabytes(), heap.cpuSeconds(), List.of(new double[] {0, 0},
                                new double[] {seconds, manifest.totalRows()}));
            }
            if (lastExport != null) {
                deleteTree(lastExport);
            }
            lastExport = folder;
            return new BenchCommand.Run(scenario, "export", manifest.totalRows(), seconds, source.requests(),
                    heap.megabytes(), heap.cpuSeconds(), List.of(new double[] {0, 0}, new double[] {seconds, manifest.totalRows()}));
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot delete the export topic", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** As `tablescan import` does it: every file checked, then the batches through Kafka to the copy-workers. */
    private BenchCommand.Run importOnce(String scenario) {
        InMemoryTableStore destination = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, Duration.ZERO);
        CheckingTable copy = new CheckingTable(table);
        destination.attach("copy", copy);
        Accounts accounts = new Accounts(alias -> null).register("destination", destination)
                .register("export", destination);
        ScanSpec spec = ScanSpecs.copy().from(new TableRef("export", "source")).to(new TableRef("destination", "copy"))
                .build();
        try (RunMeter heap = RunMeter.start()) {
            long start = System.nanoTime();
            FolderStore files = new FolderStore(lastExport);
            Importer importer = new Importer(files, 4);
            Manifest manifest = importer.manifest();
            long batches = importer.checkAll(manifest);
            CopyRun.Outcome outcome = CopyRun.run(WorkerSettings.local(broker.bootstrapServers(), accounts, inFlight)
                    .withReadInFlight(readInFlight), spec, RunOptions.defaults().withTimeout(Duration.ofHours(6))
                    .withSeeder((kafka, s) -> ImportSeeder.seed(kafka, s, files, manifest, batches, manifest.totalRows())));
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!outcome.totals().complete() || !copy.exact()) {
                throw new UserError(UserError.FAILED, "the import is not exact: " + copy.missing() + " rows missing, "
                        + copy.wrong() + " wrong writes");
            }
            long rows = outcome.totals().rowsWritten();
            System.out.printf("  import: %,d batches, checked and written in %.1f s%n", batches, seconds);
            return new BenchCommand.Run(scenario, "import", rows, seconds, destination.requests(), heap.megabytes(),
                    heap.cpuSeconds(), List.of(new double[] {0, 0}, new double[] {seconds, rows}));
        }
    }

    @Override
    public void close() throws IOException {
        deleteTree(root);
    }

    private static void deleteTree(Path path) throws IOException {
        try (Stream<Path> files = Files.walk(path)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
