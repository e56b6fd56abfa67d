package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupSets;
import io.tablescan.backup.ChangedRows;
import io.tablescan.backup.ExportFiles;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.Manifest;
import io.tablescan.backup.SetIndex;
import io.tablescan.rate.Direction;
import io.tablescan.runner.JobState;
import io.tablescan.runner.PipelineSession;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.spi.ValueText;
import io.tablescan.table.TableStores;
import io.tablescan.table.Accounts;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Backs several tables of one account up as one set: each table's export (the format and checks of export) under
 * {@code <set id>/<table>/}, then {@code set.json}, last. The tables' scans share one Kafka and one pipeline.
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan backup (--source-account=ALIAS | --source-connection-string=CS)",
                "        (--all-tables | --tables=A,B | --table-pattern=GLOB) (--to=DIR | --to-container=NAME)",
                "        [--incremental] [OPTIONS]"},
        description = "Backs tables of an account up as one backup set (an export per table and an index, set.json, "
                + "written last). Exit 0 only if every table's export is finished.")
final class BackupCommand extends TablescanCommand.ReadsEnvironment {
    @Mixin
    JsonOutput output = new JsonOutput();

    /** With --json, what the result says: set by a backup that got as far as writing its set's index. */
    private Map<String, Object> result = Map.of();

    @Mixin
    SourceAccountOptions sourceAccount = new SourceAccountOptions();

    @Mixin
    SetTables selection = new SetTables();

    @Mixin
    ExportTargetOptions to = new ExportTargetOptions();

    @Mixin
    StateOptions state = new StateOptions();

    /**
     * An incremental table's changed rows are read by point reads while they are at most {@value #POINT_READS_ALWAYS}
     * or 1 row in {@value #POINT_READS_UP_TO}; more are read by a scan with a Timestamp filter (fewer requests).
     */
    static final int POINT_READS_UP_TO = 10;
    static final int POINT_READS_ALWAYS = 1_000;

    @Option(names = "--incremental", description = "Only the rows changed since the newest complete set of the same "
            + "account in this place (by their Timestamp, from --overlap before its start), and every row's keys, "
            + "so that a restore knows the rows deleted since. A table that set lacks is backed up in full; with no "
            + "complete set yet, the whole set is full.")
    boolean incremental;

    @Option(names = "--overlap", paramLabel = "DURATION", defaultValue = "15m", converter = Overlap.class,
            description = "With --incremental: how far before the base set's start its changes are read (default 15m; "
                    + "the service's clock may be behind this machine's; 0s only where both are one clock, as in tests).")
    Duration overlap;

    /** A duration as --timeout takes it ({@code 90s}, {@code 10m}, {@code 2h}), or zero. */
    static final class Overlap implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return value.trim().matches("0+[smhSMH]") ? Duration.ZERO
                    : new WaitOptions.DurationConverter().convert(value);
        }
    }

    @Option(names = "--max-rate", paramLabel = "ROWS_PER_S", description = "At most this many rows/s read from the "
            + "account, by all the set's scans together (each of the --parallel scans gets its share).")
    Long maxRate;

    @Option(names = "--parallel", paramLabel = "N", defaultValue = "2", description = "Tables scanned at once "
            + "(default 2, at most 8).")
    int parallel;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker), in topics and groups of this backup's own, removed when it ends.")
    String kafka;

    @Override
    public Integer call() throws Exception {
        return output.aroundResult(this::execute, () -> result);
    }

    private Integer execute() {
        if (parallel < 1 || parallel > 8) {
            throw new UserError(UserError.USAGE, "--parallel must be 1 to 8");
        }
        if (maxRate != null && maxRate < 1) {
            throw new UserError(UserError.USAGE, "--max-rate must be at least 1 row per second");
        }
        if (overlap != null && !incremental && !overlap.equals(Duration.ofMinutes(15))) {
            throw new UserError(UserError.USAGE, "--overlap goes with --incremental");
        }
        Checks.bootstrapServers(kafka);
        BackupStore root = to.open(env);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env);
        TableStore source = sourceAccount.store(new Accounts(env::get));
        List<String> tables = selection.resolve(source);
        if (maxRate != null && maxRate < Math.min(parallel, tables.size())) {
            throw new UserError(UserError.USAGE, "--max-rate must be at least 1 row per second per table scanned at "
                    + "once (--parallel)");
        }
        // A local set keeps its state until it ends: run again after a kill or Ctrl-C, it goes on with the same set
        try (JobState local = cluster == null ? state.open(env, ProgressPrinter.plural(tables.size(), "table")
                + " of " + sourceAccount.accountName() + " -> " + root.describe()) : null) {
            return local != null && local.resumable() ? resume(local, root, source) : backUp(local, root, cluster,
                    source, tables);
        }
    }

    /** A new set of {@code tables}. */
    private Integer backUp(JobState local, BackupStore root, KafkaSettings cluster, TableStore source,
            List<String> tables) {
        BackupSets sets = new BackupSets(root);
        String account = sourceAccount.accountName();
        SetIndex base = null;
        try {
            List<BackupSets.Listed> listed = incremental ? sets.list() : List.of();
            SetPlaces.warnDamaged(listed);
            if (incremental && listed.stream().noneMatch(BackupSets.Listed::complete)) { // a nightly job's first run
                System.err.println("warning: --incremental: no complete backup set in " + root.describe()
                        + " to build on, so this set is a full one" + SetPlaces.hint(sets));
                incremental = false;
            }
            if (incremental) {
                base = sets.latest(null);
                if (!account.equals(base.sourceAccount())) {
                    throw new UserError(UserError.USAGE, "the newest complete set in " + root.describe() + " ("
                            + base.id() + ") is of account " + base.sourceAccount() + ", not " + account
                            + ": back up to another place, or without --incremental");
                }
            }
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
        if (cluster != null) {
            Checks.kafkaReachable(cluster);
        }
        try {
            root.prepare(); // only now: a backup refused before it starts leaves no folder behind
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
        Instant start = Instant.now();
        Plan plan = new Plan(BackupSets.newId(start), start, base, tables,
                HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()));
        if (local != null) {
            plan.record(local);
        }
        System.out.printf("backup set %s (%s) of %s to %s%n", plan.id, incremental ? "incremental on " + base.id()
                : "full", ProgressPrinter.plural(tables.size(), "table"), root.describe());
        return run(local, root, cluster, source, plan, Map.of());
    }

    /** The set an earlier run of this command began: the tables it finished are kept, the others go on. */
    private Integer resume(JobState local, BackupStore root, TableStore source) {
        BackupSets sets = new BackupSets(root);
        Plan plan;
        try {
            plan = Plan.recorded(local, sets);
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
        incremental = plan.base != null;
        Map<String, SetIndex.Table> finished = new LinkedHashMap<>();
        for (String table : plan.tables) {
            String entry = local.recorded("table." + table);
            if (entry != null) {
                SetIndex.Table done = SetIndex.parseTable(entry);
                refuseChanged(sets, plan.id, done);
                finished.put(table, done);
            }
        }
        System.out.printf("resuming backup set %s (%s) of %s to %s: %d backed up by the earlier run (started %s)%n",
                plan.id, incremental ? "incremental on " + plan.base.id() : "full",
                ProgressPrinter.plural(plan.tables.size(), "table"), root.describe(), finished.size(),
                ProgressPrinter.toSecond(plan.start.toString()));
        return run(local, root, null, source, plan, finished);
    }

    /** Backs up the plan's tables but those {@code finished} before, then writes the set's index. */
    private Integer run(JobState local, BackupStore root, KafkaSettings cluster, TableStore source, Plan plan,
            Map<String, SetIndex.Table> finished) {
        BackupSets sets = new BackupSets(root);
        String account = sourceAccount.accountName();
        Accounts accounts = new Accounts(name -> null).register(sourceAccount.name(), source);
        Map<String, Long> limits = maxRate == null ? null
                : Map.of(Direction.READ.key, maxRate / atOnce(plan.tables.size() - finished.size()), Direction.WRITE.key,
                        0L);
        List<SetIndex.Table> done = new ArrayList<>();
        boolean interrupted;
        SetProgress progress = SetProgress.of("rows read", 0); // a table's rows are unknown until its scan ends
        try (Interrupt interrupt = Interrupt.onSigint();
                PipelineSession session = local != null ? PipelineSession.resumable(local, accounts, env, limits)
                        : PipelineSession.start(cluster, accounts, env);
                ExecutorService pool = Executors.newFixedThreadPool(parallel)) {
            SetScans scans = new SetScans(session, cluster != null, local != null, env, interrupt::requested,
                    progress);
            TableStore reads = TableStores.forCommand(source);
            List<Future<SetIndex.Table>> futures = new ArrayList<>();
            for (String table : plan.tables) {
                if (finished.containsKey(table)) {
                    System.out.printf("  %s: backed up by the earlier run%n", table);
                    futures.add(java.util.concurrent.CompletableFuture.completedFuture(finished.get(table)));
                    continue;
                }
                SetIndex.Table previous = plan.base == null ? null : plan.base.table(table);
                String since = previous != null && previous.ok() ? DateTimeFormatter.ISO_INSTANT.format(
                        Instant.parse(plan.base.startTime()).minus(overlap)) : null;
                futures.add(pool.submit(() -> {
                    SetIndex.Table result = backUp(scans, reads, sets.set(plan.id), sourceAccount.name(), table,
                            since, limits, account, plan.runId);
                    if (local != null && result.ok()) { // a rerun keeps it
                        local.record("table." + table, SetIndex.tableJson(result));
                        local.progress(progress.done());
                    }
                    return result;
                }));
            }
            for (Future<SetIndex.Table> future : futures) {
                done.add(future.get());
            }
            interrupted = interrupt.requested();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
        boolean complete = done.stream().allMatch(SetIndex.Table::ok);
        long backedUp = done.stream().filter(SetIndex.Table::ok).count();
        if (!complete && interrupted && local != null && local.resumable()) { // no index yet: the rerun goes on
            local.progress(progress.done());
            throw new UserError(UserError.INTERRUPTED, String.format("interrupted: %s read when stopped, %d of %d "
                    + "tables backed up; run the same command again to go on with backup set %s (its state is kept "
                    + "in %s; --restart starts a new set)", ProgressPrinter.plural(progress.done(), "row"), backedUp,
                    done.size(), plan.id, local.dir()));
        }
        if (local != null) { // the tables Ctrl-C stopped fail the set after all: said now
            done.stream().filter(t -> !t.ok() && interrupted && SetScans.stoppedBy(t.error()))
                    .forEach(t -> System.out.println("  " + t.table() + ": FAILED: " + t.error()));
        }
        SetIndex index = new SetIndex(SetIndex.FORMAT_VERSION, plan.id, plan.base != null ? SetIndex.INCREMENTAL
                : SetIndex.FULL, plan.base == null ? null : plan.base.id(), plan.start.toString(),
                Instant.now().toString(), account, version(), complete, done);
        try {
            sets.set(plan.id).prepare(); // no table wrote files when each failed before (or Ctrl-C came first)
            sets.set(plan.id).write(SetIndex.NAME, index.toJson());
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
        if (local != null) {
            local.finish(); // the set has its index, complete or not: a rerun starts a new one
        }
        System.out.printf("backup set %s %s: %s, %s, %,d bytes%n", plan.id, complete ? "complete" : "NOT complete",
                ProgressPrinter.plural(backedUp, "table"), ProgressPrinter.plural(index.rows(), "row"), index.bytes());
        if (!complete) {
            System.out.println("the tables that failed are named above; the others' exports are kept in the set, "
                    + "which a restore and an incremental backup do not use: run the backup again");
        }
        result = result(index, root.describe());
        if (!complete && interrupted) { // as a local job's Ctrl-C says what was done
            System.err.printf("tablescan: interrupted: %s read when stopped, %s of %d backed up; run the backup "
                    + "again: it starts a new set%n", ProgressPrinter.plural(progress.done(), "row"),
                    ProgressPrinter.plural(backedUp, "table"), done.size());
        }
        return complete ? 0 : interrupted ? UserError.INTERRUPTED : UserError.FAILED; // Ctrl-C: 130, as for copy
    }

    /**
     * A finished table is kept only while its files are as the earlier run wrote them (its manifest, and an
     * incremental's key list): a set's folder without its index may have been pruned or deleted meanwhile.
     */
    private static void refuseChanged(BackupSets sets, String id, SetIndex.Table done) {
        String why = null;
        try {
            byte[] manifest = sets.table(id, done.table()).read(Manifest.NAME);
            if (!SetIndex.sha256(manifest).equals(done.manifestSha256())) {
                why = "its manifest changed";
            } else if (done.keyRows() != null && !sets.keys(id, done.table()).exists(Manifest.NAME)) {
                why = "its key list is gone";
            }
        } catch (BackupException e) {
            why = "its manifest is gone";
        }
        if (why != null) {
            throw new UserError(UserError.FAILED, "backup set " + id + ": table " + done.table() + ", backed up by the "
                    + "earlier run, is not as it left it (" + why + "): run the same command with --restart to start "
                    + "a new set");
        }
    }

    /**
     * What a set is: its id and start, the set it builds on (null: a full set), its tables and the run id of its
     * files; a local set records it in its state, so that a rerun goes on with the same set.
     */
    private record Plan(String id, Instant start, SetIndex base, List<String> tables, String runId) {
        void record(JobState local) {
            local.record("set", id);
            local.record("start", start.toString());
            local.record("base", base == null ? "" : base.id());
            local.record("tables", String.join(",", tables)); // table names hold letters and digits only
            local.record("runId", runId);
        }

        static Plan recorded(JobState local, BackupSets sets) {
            String base = local.recorded("base");
            return new Plan(local.recorded("set"), Instant.parse(local.recorded("start")),
                    base == null || base.isEmpty() ? null : sets.read(base),
                    List.of(local.recorded("tables").split(",")), local.recorded("runId"));
        }
    }

    /** The scans run at once, each with its share of --max-rate: --parallel, or fewer when fewer tables are left. */
    private long atOnce(int tables) {
        return Math.max(1, Math.min(parallel, tables));
    }

    /** The --json result: the set, where it is, each table's rows (or its error), the totals, the failed tables. */
    static Map<String, Object> result(SetIndex index, String place) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("setId", index.id());
        result.put("kind", index.kind());
        if (index.base() != null) {
            result.put("base", index.base());
        }
        result.put("place", place);
        result.put("complete", index.complete());
        List<Map<String, Object>> tables = new ArrayList<>();
        for (SetIndex.Table t : index.tables()) {
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("table", t.table());
            if (t.ok()) {
                table.put("rows", t.rows()); // an incremental table's: its changed rows; keyRows: the rows it holds
                if (t.keyRows() != null) {
                    table.put("keyRows", t.keyRows());
                }
                table.put("files", t.files());
                table.put("bytes", t.bytes());
            } else {
                table.put("error", t.error());
            }
            tables.add(table);
        }
        result.put("tables", tables);
        result.put("rows", index.rows());
        result.put("bytes", index.bytes());
        result.put("failed", index.tables().stream().filter(t -> !t.ok()).map(SetIndex.Table::table).toList());
        return result;
    }

    /** One table: its export, and for an incremental one its changes and the keys of all its rows. */
    private static SetIndex.Table backUp(SetScans scans, TableStore reads, BackupStore set, String alias, String table,
            String since, Map<String, Long> limits, String account, String runId) {
        long started = System.nanoTime();
        try {
            String filter = since == null ? null : "Timestamp ge datetime'" + since + "'";
            Manifest rows;
            Long keyRows = null;
            if (since == null) {
                rows = scans.export(table, alias, table, null, null, limits, set.at(table), runId, account);
            } else { // one scan of every row's keys and Timestamp, then point reads of the changed rows
                Manifest keys = scans.export(table + ".keys", alias, table, null, List.of("RowKey", "Timestamp"),
                        limits, set.at(table + ".keys"), runId, account);
                keyRows = keys.totalRows();
                Map<Integer, List<ChangedRows.Key>> changed = ChangedRows.find(set.at(table + ".keys"), keys,
                        ValueText.ticks(since), Math.max(POINT_READS_ALWAYS, keyRows / POINT_READS_UP_TO));
                Manifest pointReads = ExportFiles.finishedBefore(set.at(table), keys.scanId()); // a rerun's
                rows = changed == null ? scans.export(table, alias, table, filter, null, limits, set.at(table), runId,
                        account) // many changes: a filtered scan reads them in fewer requests
                        : pointReads != null ? pointReads : ChangedRows.export(reads, table, changed, keys, filter,
                                limits == null ? 0 : limits.get(Direction.READ.key), scans.stop(), set.at(table), runId,
                                account);
            }
            long bytes = rows.files().stream().mapToLong(Manifest.DataFile::bytes).sum();
            // An incremental's "changed" rows are those written since the base's start less the overlap: the time
            // says so, else rows written a minute before the base (all of a table just filled) look changed since.
            System.out.printf("  %s: %s%s, %s, %,d bytes in %.1f s%n", table, ProgressPrinter.plural(rows.totalRows(),
                    since == null ? "row" : "changed row"), keyRows == null ? "" : String.format(" (of %,d) since %s",
                            keyRows, ProgressPrinter.toSecond(since)),
                    ProgressPrinter.plural(rows.files().size(), "file"), bytes, (System.nanoTime() - started) / 1e9);
            return new SetIndex.Table(table, rows.totalRows(), bytes, rows.files().size(),
                    SetIndex.sha256(rows.toJson()), keyRows, since, null);
        } catch (BackupException | UserError | TableStoreException e) {
            if (!(scans.resumable() && scans.interruption(e.getMessage()))) { // such a table may go on in a rerun
                System.out.println("  " + table + ": FAILED: " + e.getMessage());
            }
            return new SetIndex.Table(table, null, null, null, null, null, since, e.getMessage());
        }
    }


    static String version() {
        String[] version = TablescanCommand.class.getAnnotation(Command.class).version();
        return version.length == 0 ? "unknown" : version[0].replace("tablescan ", "");
    }
}
