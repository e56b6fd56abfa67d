package io.tablescan.bench;

import io.tablescan.azure.RowJson;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.TablescanCommand;
import io.tablescan.cli.UserError;
import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The backup-set scenario: five tables of one model account (one pace for all: 100 ms a request, the account's and
 * each partition's targets) backed up by {@code tablescan backup} as a user runs it (in this JVM, over the model
 * account's REST API, to a folder), then 1% of their rows changed (updates, inserts, deletes), then {@code backup
 * --incremental}. Up to {@value #RESTORE_CHECK_ROWS} rows, the chain is also restored into a second account and
 * compared with the changed tables, row by row.
 */
final class BackupSetBench implements BenchCommand.BenchRunner, AutoCloseable {
    /** One big table and four smaller ones, as an account's tables often are: half, then 20, 15, 10 and 5%. */
    static final Map<String, Double> TABLES = tables();
    static final int RESTORE_CHECK_ROWS = 200_000;

    private static Map<String, Double> tables() {
        Map<String, Double> tables = new LinkedHashMap<>();
        tables.put("Packages", 0.50);
        tables.put("Versions", 0.20);
        tables.put("Downloads", 0.15);
        tables.put("Owners", 0.10);
        tables.put("Audit", 0.05);
        return tables;
    }

    private final BenchCommand.Scenario scenario;
    private final int rows;
    private final Path root;
    private InMemoryTableStore source;
    private ModelAccount account;
    private Map<String, ChangedTable> tables;
    private Path folder;

    BackupSetBench(BenchCommand.Scenario scenario, int rows) throws IOException {
        this.scenario = scenario;
        this.rows = rows;
        this.root = Files.createTempDirectory("tablescan-bench-backup-set-");
    }

    @Override
    public BenchCommand.Run run(String scenarioName, String strategy, int index) throws Exception {
        if (strategy.equals("full")) {
            fresh(index);
            return backUp(scenarioName, strategy, rows);
        }
        long changed = change(index);
        System.out.printf("  changed %,d rows (updates, inserts and deletes over the five tables)%n", changed);
        BenchCommand.Run run = backUp(scenarioName, strategy, rows); // as many inserts as deletes
        if (rows <= RESTORE_CHECK_ROWS) {
            restoreEqual();
        } else {
            System.out.printf("  (restore not checked above %,d rows: the restored tables would be held in memory)%n",
                    RESTORE_CHECK_ROWS);
        }
        return run;
    }

    /** A new account of five generated tables, and an empty folder for its sets. */
    private void fresh(int index) throws IOException {
        if (account != null) {
            account.close();
        }
        source = new InMemoryTableStore(InMemoryTableStore.Adversary.NONE, scenario.latency()).limit(scenario.limits());
        tables = new LinkedHashMap<>();
        int left = rows;
        int i = 0;
        for (Map.Entry<String, Double> t : TABLES.entrySet()) {
            int size = ++i == TABLES.size() ? left : (int) Math.round(rows * t.getValue());
            left -= size;
            ChangedTable table = new ChangedTable(new GeneratedTable(size));
            tables.put(t.getKey(), table);
            source.attach(t.getKey(), table);
        }
        account = ModelAccount.start(source);
        if (folder != null) {
            deleteTree(folder);
        }
        folder = Files.createDirectories(root.resolve("sets-" + index));
    }

    /** One backup command, timed and metered; the set's bytes are what the folder grew by. */
    private BenchCommand.Run backUp(String scenarioName, String strategy, long rowsNow) throws IOException {
        long requests = source.requests();
        long served = source.rowsServed();
        long bytesRead = account.bytesServed();
        long before = size(folder);
        List<String> args = new ArrayList<>(List.of("backup", "--source-connection-string", account.connectionString(),
                "--tables", String.join(",", tables.keySet()), "--to", folder.toString()));
        if (strategy.equals("incremental")) {
            args.add("--incremental");
        }
        try (RunMeter meter = RunMeter.start()) {
            long start = System.nanoTime();
            int exit = TablescanCommand.execute(args.toArray(String[]::new));
            double seconds = (System.nanoTime() - start) / 1e9;
            if (exit != 0) {
                throw new UserError(UserError.FAILED, "the " + strategy + " backup exited " + exit);
            }
            long written = size(folder) - before;
            System.out.printf("  %s set: %.1f s, %,d rows read (%,d bytes of responses), %,d bytes written, "
                    + "%,d requests%n", strategy, seconds, source.rowsServed() - served,
                    account.bytesServed() - bytesRead, written, source.requests() - requests);
            return new BenchCommand.Run(scenarioName, strategy, rowsNow, seconds, source.requests() - requests,
                    meter.megabytes(), meter.cpuSeconds(), List.of(new double[] {0, 0}, new double[] {seconds, rowsNow}));
        }
    }

    /**
     * Changes 1% of each table's rows as an application would between two backups: 60% of them updated, 20%
     * deleted, as many inserted (so the table keeps its size), each write with the Timestamp of now.
     */
    private long change(int index) {
        Random random = new Random(index * 7919L);
        long count = 0;
        for (ChangedTable table : tables.values()) {
            GeneratedTable base = table.base();
            int changes = (int) Math.round(base.size() * 0.01);
            int deletes = changes / 5;
            Set<Integer> picked = new HashSet<>();
            while (picked.size() < changes - deletes) { // updates and deletes, of distinct rows
                picked.add(random.nextInt(base.size()));
            }
            int n = 0;
            for (int position : picked) {
                int p = base.partitionOf(position);
                Row row = base.row(p, position - base.start(p));
                if (n++ < deletes) {
                    table.remove(row.partitionKey(), row.rowKey());
                } else {
                    table.put(SampleTable.row(row.partitionKey(), row.rowKey(), new Random(random.nextLong())));
                }
            }
            for (int i = 0; i < deletes; i++) { // new rows in the partitions of random positions
                int p = base.partitionOf(random.nextInt(base.size()));
                table.put(SampleTable.row(base.partitionKey(p), "n" + GeneratedTable.rowKey(i), new Random(i)));
            }
            count += changes;
        }
        return count;
    }

    /** Restores the newest set (the chain) into an empty account and compares every row with the changed tables. */
    private void restoreEqual() {
        InMemoryTableStore destination = new InMemoryTableStore();
        try (ModelAccount restored = ModelAccount.start(destination)) {
            int exit = TablescanCommand.execute("restore", "--from", folder.toString(), "--latest",
                    "--dest-connection-string", restored.connectionString());
            if (exit != 0) {
                throw new UserError(UserError.FAILED, "the restore exited " + exit);
            }
            for (Map.Entry<String, ChangedTable> t : tables.entrySet()) {
                List<String> expected = t.getValue().all().stream().map(BackupSetBench::text).toList();
                List<String> actual = destination.rows(t.getKey()).stream().map(BackupSetBench::text).toList();
                if (!expected.equals(actual)) {
                    throw new UserError(UserError.FAILED, "the restored " + t.getKey() + " differs from the table ("
                            + actual.size() + " rows against " + expected.size() + ")");
                }
            }
            System.out.println("  restore of the chain: every table equal to the changed table");
        }
    }

    /** A row's keys and properties as JSON (without the Timestamp the service sets on each write). */
    private static String text(Row row) {
        return new String(RowJson.toJson(new Row(row.partitionKey(), row.rowKey(), row.properties())),
                StandardCharsets.UTF_8);
    }

    private static long size(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    @Override
    public void close() throws IOException {
        if (account != null) {
            account.close();
        }
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
