package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupSets;
import io.tablescan.backup.SetIndex;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The catalog of backup sets in a place: list, show one, prune by retention. All read only the sets' indexes. */
@Command(name = "backups", mixinStandardHelpOptions = true, description = "Lists, shows and prunes backup sets.",
        subcommands = {BackupsCommand.ListSets.class, BackupsCommand.Show.class, BackupsCommand.Prune.class})
final class BackupsCommand implements Runnable {
    @Override
    public void run() {
        throw new UserError(UserError.USAGE, "give a command: backups list, backups show ID or backups prune");
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every backup set: id, time, full or "
            + "incremental, tables, rows, size, complete or not.")
    static final class ListSets extends TablescanCommand.ReadsEnvironment {
        @Mixin
        ExportSourceOptions from = new ExportSourceOptions();

        @Override
        public Integer call() {
            BackupSets sets = sets(from, env);
            List<BackupSets.Listed> listed = catalog(sets::list);
            String instead = listed.isEmpty() ? SetPlaces.noSet(sets) : null; // exit 4 when sets are nearby
            System.out.printf("%-22s  %-20s  %-11s  %6s  %12s  %14s  %s%n", "SET", "STARTED", "KIND", "TABLES", "ROWS",
                    "BYTES", "STATE");
            for (BackupSets.Listed set : listed) {
                SetIndex index = set.index();
                if (index == null) {
                    System.out.printf("%-22s  %-20s  %-11s  %6s  %12s  %14s  %s%n", set.id(), set.started(), "-", "-",
                            "-", "-", set.damaged() ? "DAMAGED (its " + SetIndex.NAME + " cannot be read)"
                            : "unfinished (no index)");
                    continue;
                }
                System.out.printf("%-22s  %-20s  %-11s  %6d  %,12d  %,14d  %s%n", set.id(), set.started(), index.kind(),
                        index.tables().size(), index.rows(), index.bytes(), index.complete() ? "complete"
                        : "NOT complete (" + index.tables().stream().filter(t -> !t.ok()).count() + " failed)");
            }
            System.out.println(ProgressPrinter.plural(listed.size(), "set") + " in " + sets.root().describe()
                    + (instead == null ? "" : ": " + instead));
            SetPlaces.warnDamaged(listed);
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One backup set: its index, table by table.")
    static final class Show extends TablescanCommand.ReadsEnvironment {
        @Mixin
        ExportSourceOptions from = new ExportSourceOptions();

        @Parameters(index = "0", paramLabel = "ID", description = "The set's id.")
        String id;

        @Override
        public Integer call() {
            BackupSets sets = sets(from, env);
            SetIndex index = catalog(() -> sets.read(id));
            System.out.printf("set %s: %s%s, %s, account %s, tablescan %s%n", index.id(), index.kind(),
                    index.base() == null ? "" : " on " + index.base(), index.complete() ? "complete" : "NOT complete",
                    index.sourceAccount(), index.tablescanVersion());
            System.out.printf("started %s, ended %s%n", index.startTime(), index.endTime());
            for (SetIndex.Table table : index.tables()) {
                if (!table.ok()) {
                    System.out.printf("  %-30s FAILED: %s%n", table.table(), table.error());
                    continue;
                }
                System.out.printf("  %-30s %,12d %s  %,14d bytes  %3d files  manifest sha256 %s%s%n", table.table(),
                        table.rows(), table.since() == null ? "rows        " : "changed rows", table.bytes(),
                        table.files(), table.manifestSha256(), table.keyRows() == null ? ""
                        : String.format("  (%,d rows in all, since %s)", table.keyRows(), table.since()));
            }
            return 0;
        }
    }

    @Command(name = "prune", mixinStandardHelpOptions = true, description = "Deletes old backup sets; never the "
            + "newest complete one, nor one a kept incremental set builds on.")
    static final class Prune extends TablescanCommand.ReadsEnvironment {
        @Mixin
        ExportSourceOptions from = new ExportSourceOptions();

        @Option(names = "--keep-last", paramLabel = "N", description = "Keep the newest N complete sets.")
        Integer keepLast;

        @Option(names = "--keep-days", paramLabel = "D", description = "Keep the complete sets started in the last "
                + "D days.")
        Integer keepDays;

        @Option(names = "--dry-run", description = "Only say which sets would be deleted.")
        boolean dryRun;

        @Override
        public Integer call() {
            if (keepLast == null && keepDays == null) {
                throw new UserError(UserError.USAGE, "give --keep-last N and/or --keep-days D");
            }
            if (keepLast != null && keepLast < 1) {
                throw new UserError(UserError.USAGE, "--keep-last: " + keepLast + " is not a count of sets to keep (1 or more)");
            }
            if (keepDays != null && keepDays < 0) {
                throw new UserError(UserError.USAGE, "--keep-days: " + keepDays + " is not a number of days (0 or more)");
            }
            BackupSets sets = sets(from, env);
            List<BackupSets.Listed> listed = catalog(sets::list);
            String instead = listed.isEmpty() ? SetPlaces.noSet(sets) : null; // exit 4 when sets are nearby
            if (instead != null) {
                System.out.println("no backup set in " + sets.root().describe() + ": " + instead);
            }
            for (BackupSets.Listed set : listed) {
                if (set.damaged()) { // what it is cannot be known: the newest set, or a kept set's base
                    System.out.println("kept " + set.id() + ": damaged, never pruned (" + set.damage() + "); look at "
                            + "it, and delete it by hand if it is not needed");
                }
            }
            List<String> expired = catalog(() -> sets.expired(keepLast, keepDays, Instant.now()));
            for (String id : expired) {
                if (!dryRun) {
                    catalog(() -> {
                        sets.delete(id);
                        return null;
                    });
                }
                System.out.println((dryRun ? "would delete " : "deleted ") + id);
            }
            System.out.println((dryRun ? "dry run: " : "") + ProgressPrinter.plural(expired.size(), "set")
                    + (dryRun ? " would be deleted; nothing was changed" : " deleted"));
            return 0;
        }
    }

    /** The sets in the place given; a container that does not exist is a mistake, as a missing folder is. */
    private static BackupSets sets(ExportSourceOptions from, java.util.Map<String, String> env) {
        BackupSets sets = new BackupSets(from.open(env));
        if (sets.root() instanceof io.tablescan.backup.BlobStore blob && !catalog(blob::containerExists)) {
            throw new UserError(UserError.NOT_FOUND, "--from-container: no container " + from.container
                    + (from.connectionString != null ? "" : " in account " + from.account));
        }
        return sets;
    }

    private static <T> T catalog(java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
    }
}
