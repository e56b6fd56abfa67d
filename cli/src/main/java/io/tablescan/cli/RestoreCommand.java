package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupSets;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.SetIndex;
import io.tablescan.rate.Direction;
import io.tablescan.rate.TokenBucket;
import io.tablescan.runner.PipelineSession;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.table.Accounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Restores the tables of a backup set as that set saw them: every file of every export it needs is checked before
 * the first write; then each table's exports, from its last full backup up to the set, are imported in order, and
 * the rows deleted since (an incremental set's list of keys lacks them) are deleted.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
        customSynopsis = {"tablescan restore (--from=DIR | --from-container=NAME) (--set=ID | --latest | --at=TIME)",
                "        [--tables=A,B] (--dest-account=ALIAS | --dest-connection-string=CS) [--table-prefix=P]",
                "        [--into-existing] [OPTIONS]"},
        description = "Restores the tables of a backup set, deletes included. Checks every file first: a bad set "
                + "writes nothing. Refuses tables that hold rows unless --into-existing.")
final class RestoreCommand extends TablescanCommand.ReadsEnvironment {
    /** The alias an import's scan names its source by (the workers resolve it to the destination: nothing is read). */
    static final String EXPORT_ALIAS = "export";

    @Mixin
    JsonOutput output = new JsonOutput();

    /** With --json, what the result says: set by a restore that got as far as its writes. */
    private Map<String, Object> result = Map.of();

    @Mixin
    ExportSourceOptions from = new ExportSourceOptions();

    @ArgGroup(multiplicity = "0..1")
    Which which;

    static final class Which {
        @Option(names = "--set", paramLabel = "ID", description = "The set to restore (see `tablescan backups list`).")
        String id;

        @Option(names = "--latest", description = "The newest complete set.")
        boolean latest;

        @Option(names = "--at", paramLabel = "TIME", converter = ScanOptions.Since.class, description = "The newest "
                + "complete set that started at or before TIME (2026-11-25T02:00:00Z, or a date: its midnight UTC).")
        Instant at;
    }

    @Option(names = "--tables", split = ",", paramLabel = "A,B", description = "Only these tables of the set.")
    List<String> tables;

    @Option(names = "--dest-connection-string", paramLabel = "CS", description = "Connection string of the account "
            + "to restore into.")
    String destConnectionString;

    @Option(names = "--dest-account", paramLabel = "ALIAS", description = "Or an account alias to restore into.")
    String destAccount;

    @Option(names = "--table-prefix", paramLabel = "P", description = "Restore table T as P + T (default: T).")
    String tablePrefix = "";

    @Option(names = "--into-existing", description = "Restore into tables that hold rows: rows with the set's keys "
            + "are replaced, rows deleted before the set deleted, other rows kept.")
    boolean intoExisting;

    @Option(names = "--parallel", paramLabel = "N", defaultValue = "2", description = "Tables restored at once "
            + "(default 2, at most 8).")
    int parallel;

    @Option(names = "--kafka", paramLabel = "HOST:PORT", description = "Bootstrap servers of a Kafka cluster to use "
            + "(default: an embedded broker), in topics and groups of this restore's own, removed when it ends.")
    String kafka;

    @Option(names = "--max-write-rate", paramLabel = "ROWS_PER_S", description = "At most this many rows/s written "
            + "to the destination account, row writes and deletes, by all the tables restored at once together (each "
            + "of the --parallel tables gets its share).")
    Long maxWriteRate;

    /** The tables restored at once: --parallel, or fewer when fewer are restored. */
    private int atOnce = 1;

    @Override
    public Integer call() throws Exception {
        return output.aroundResult(this::execute, () -> result);
    }

    private Integer execute() {
        if (parallel < 1 || parallel > 8) {
            throw new UserError(UserError.USAGE, "--parallel must be 1 to 8");
        }
        if (which == null) {
            throw new UserError(UserError.USAGE, "give one of --set ID, --latest and --at TIME");
        }
        if (maxWriteRate != null && maxWriteRate < 1) {
            throw new UserError(UserError.USAGE, "--max-write-rate must be at least 1 row per second");
        }
        Checks.bootstrapServers(kafka);
        BackupSets sets = new BackupSets(from.open(env));
        TableStore dest = CopyCommand.store(new Accounts(env::get), "dest", destConnectionString, destAccount);
        KafkaSettings cluster = kafka == null ? null : ClusterOptions.environment(kafka, env);
        SetIndex set;
        List<SetIndex> chain;
        try {
            if (which.id == null) { // the newest complete set: a damaged one is named and left out
                SetPlaces.warnDamaged(sets.list());
            }
            set = which.id != null ? sets.read(which.id) : sets.latest(which.latest ? null : which.at);
            chain = sets.chain(set.id());
        } catch (BackupException e) {
            if (e.kind() == BackupException.Kind.NOT_FOUND && which.id == null) {
                throw new UserError(UserError.NOT_FOUND, e.getMessage() + SetPlaces.hint(sets));
            }
            throw BackupLocations.error(e);
        }
        List<String> chosen = chosen(set);
        atOnce = Math.min(parallel, chosen.size()); // each table restored at once gets its share of the cap
        if (maxWriteRate != null && maxWriteRate < atOnce) {
            throw new UserError(UserError.USAGE, "--max-write-rate must be at least 1 row per second per table "
                    + "restored at once (--parallel)");
        }
        for (String table : chosen) {
            Checks.tableName("--table-prefix", tablePrefix + table);
        }
        if (!intoExisting) {
            List<String> holding = chosen.stream().filter(t -> holdsRows(dest, tablePrefix + t))
                    .map(t -> tablePrefix + t).toList();
            if (!holding.isEmpty()) {
                throw new UserError(UserError.USAGE, "restore refused: " + String.join(", ", holding)
                        + (holding.size() == 1 ? " holds" : " hold") + " rows; restore under another --table-prefix, "
                        + "or give --into-existing; nothing was written");
            }
        }
        System.out.printf("restoring %s of backup set %s (%s, %s) from %s%n", ProgressPrinter.plural(chosen.size(),
                "table"), set.id(), set.kind(), ProgressPrinter.toSecond(set.startTime()), sets.root().describe());
        List<RestorePlan> plans = new ArrayList<>();
        try {
            for (String table : chosen) {
                RestorePlan plan = RestorePlan.check(sets, chain, table);
                System.out.printf("  %s: %s as at the set; checked %s in %s (sets %s), %s to delete%n", table,
                        ProgressPrinter.plural(plan.rowsAtSet(), "row"), ProgressPrinter.plural(plan.rows(), "row"),
                        ProgressPrinter.plural(plan.steps().size(), "export"),
                        String.join(", ", plan.steps().stream().map(RestorePlan.Step::setId).toList()),
                        ProgressPrinter.plural(plan.deletes().size(), "row"));
                plans.add(plan);
            }
        } catch (BackupException e) {
            throw BackupLocations.error(new BackupException(e.kind(), e.getMessage() + "; nothing was written"));
        }
        String destName = destAccount != null ? destAccount : "destination";
        Accounts accounts = new Accounts(name -> null).register(destName, dest).register(EXPORT_ALIAS, dest);
        List<String> failed = new ArrayList<>();
        List<Restored> restored = new ArrayList<>();
        boolean interrupted;
        SetProgress progress = SetProgress.of("row writes", plans.stream().mapToLong(RestorePlan::rows).sum());
        try (Interrupt interrupt = Interrupt.onSigint();
                PipelineSession session = PipelineSession.start(cluster, accounts, env);
                ExecutorService pool = Executors.newFixedThreadPool(parallel)) {
            SetScans scans = new SetScans(session, cluster != null, false, env, interrupt::requested, progress);
            List<Future<Restored>> results = new ArrayList<>();
            for (RestorePlan plan : plans) {
                results.add(pool.submit(() -> restore(scans, dest, destName, plan)));
            }
            for (Future<Restored> future : results) {
                Restored table = future.get();
                restored.add(table);
                if (table.error() != null) {
                    failed.add(table.table());
                }
            }
            interrupted = interrupt.requested();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
        result = result(set, chain, sets.root().describe(), restored);
        if (!failed.isEmpty()) {
            System.out.println("restore NOT complete: " + String.join(", ", failed) + " failed (see above); run the "
                    + "same restore again with --into-existing: it is idempotent");
            if (interrupted) { // as a local job's Ctrl-C says what was done
                System.err.printf("tablescan: interrupted: %s done when stopped, %s of %d restored; run the same "
                        + "restore again with --into-existing to finish it%n",
                        ProgressPrinter.plural(progress.done(), "row write"),
                        ProgressPrinter.plural(plans.size() - failed.size(), "table"), plans.size());
            }
            return interrupted ? UserError.INTERRUPTED : UserError.FAILED; // Ctrl-C: 130, as for copy
        }
        System.out.printf("restored %s of backup set %s: %s%n", ProgressPrinter.plural(plans.size(), "table"),
                set.id(), ProgressPrinter.plural(plans.stream().mapToLong(RestorePlan::rowsAtSet).sum(), "row"));
        return 0;
    }

    /** One table's restore: the rows it holds as at the set, the writes and deletes that took; or its error. */
    record Restored(String table, String destTable, long rows, long rowWrites, long deleted, String error) {}

    /** The --json result: the set and its chain, where it is, each table's rows restored (or its error), the total. */
    static Map<String, Object> result(SetIndex set, List<SetIndex> chain, String place, List<Restored> restored) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("setId", set.id());
        result.put("kind", set.kind());
        result.put("sets", chain.stream().map(SetIndex::id).toList());
        result.put("place", place);
        List<Map<String, Object>> tables = new ArrayList<>();
        for (Restored r : restored) {
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("table", r.table());
            table.put("destTable", r.destTable());
            if (r.error() == null) {
                table.put("rows", r.rows());
                table.put("rowWrites", r.rowWrites());
                table.put("deleted", r.deleted());
            } else {
                table.put("error", r.error());
            }
            tables.add(table);
        }
        result.put("complete", restored.stream().allMatch(r -> r.error() == null));
        result.put("tables", tables);
        result.put("rows", restored.stream().filter(r -> r.error() == null).mapToLong(Restored::rows).sum());
        result.put("failed", restored.stream().filter(r -> r.error() != null).map(Restored::table).toList());
        return result;
    }

    /** One table: its exports in order, then its deletes. */
    private Restored restore(SetScans scans, TableStore dest, String destName, RestorePlan plan) {
        String destTable = tablePrefix + plan.table();
        try {
            Checks.retried(dest).createTableIfNotExists(destTable);
            long written = 0;
            for (RestorePlan.Step step : plan.steps()) {
                written += scans.importInto(destName, destTable, step.store(), step.manifest(), step.batches(),
                        maxWriteRate == null ? null : Map.of(Direction.READ.key, 0L, Direction.WRITE.key,
                                maxWriteRate / atOnce));
            }
            long deleted = delete(dest, destTable, plan.deletes(), maxWriteRate == null ? 0 : maxWriteRate / atOnce);
            // The rows the table holds as the set saw it, not the writes summed over the chain's exports.
            System.out.printf("  %s: restored %s into %s (%s over %s, %s deleted)%n", plan.table(),
                    ProgressPrinter.plural(plan.rowsAtSet(), "row"), destTable, ProgressPrinter.plural(written,
                            "row write"), ProgressPrinter.plural(plan.steps().size(), "export"),
                    ProgressPrinter.plural(deleted, "row"));
            return new Restored(plan.table(), destTable, plan.rowsAtSet(), written, deleted, null);
        } catch (BackupException | UserError | TableStoreException e) {
            System.out.println("  " + plan.table() + ": FAILED: " + e.getMessage());
            return new Restored(plan.table(), destTable, 0, 0, 0, e.getMessage());
        }
    }

    /**
     * Deletes the rows, 16 at a time, at most {@code maxRate} a second (0: uncapped); a row already gone counts as
     * deleted (a rerun's).
     */
    private static long delete(TableStore dest, String table, List<RestorePlan.Key> keys, long maxRate) {
        AtomicLong deleted = new AtomicLong();
        TokenBucket cap = new TokenBucket(maxRate);
        try (ExecutorService pool = Executors.newFixedThreadPool(16, Thread.ofVirtual().factory())) {
            List<Future<?>> done = new ArrayList<>();
            for (RestorePlan.Key key : keys) {
                done.add(pool.submit(() -> {
                    cap.acquire(1);
                    dest.delete(table, key.partitionKey(), key.rowKey());
                    deleted.incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackupException(BackupException.Kind.FAILED, "interrupted while deleting rows of " + table);
        }
        return deleted.get();
    }

    private List<String> chosen(SetIndex set) {
        List<String> all = set.tables().stream().filter(SetIndex.Table::ok).map(SetIndex.Table::table).toList();
        if (tables == null) {
            return all;
        }
        for (String table : tables) {
            if (!all.contains(table)) {
                throw new UserError(UserError.USAGE, "backup set " + set.id() + " holds no table " + table
                        + " (it holds " + String.join(", ", all) + ")");
            }
        }
        return tables.stream().distinct().toList();
    }

    /** Whether the table exists and holds a row (a page can be empty and still have more). */
    static boolean holdsRows(TableStore store, String table) {
        try {
            var page = store.query(table, KeyRange.ALL, new QueryOptions(1, List.of(), null), null);
            for (int more = 0; page.rows().isEmpty() && page.next() != null && more < 20; more++) {
                page = store.query(table, KeyRange.ALL, new QueryOptions(1, List.of(), null), page.next());
            }
            return !page.rows().isEmpty();
        } catch (TableStoreException e) {
            if (io.tablescan.azure.AzureTableStore.notFound(e)) { // not a 404 of something else at the endpoint
                return false;
            }
            throw new UserError(UserError.forStatus(e.status()), "cannot read the table " + table
                    + Checks.at(store, e) + ": " + e.getMessage());
        }
    }
}
