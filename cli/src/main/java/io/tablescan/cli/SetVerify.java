package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupSets;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.ExportComparer;
import io.tablescan.backup.Manifest;
import io.tablescan.backup.SetIndex;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import io.tablescan.table.Accounts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code verify --from-set ID}: each table of a backup set, as the set restores it (its exports from the last full
 * one applied in order, less the rows its key list lacks), compared with the live table as an export is.
 */
final class SetVerify {
    private SetVerify() {}

    static int run(BackupStore root, String id, String onlyTable, SourceAccountOptions sourceAccount, ScanOptions scan,
            KafkaSettings cluster, Map<String, String> env, Path report) {
        if (scan.filter != null || scan.select != null || scan.since != null || scan.partitionPrefix != null
                || scan.fromPartition != null || scan.toPartition != null) {
            throw new UserError(UserError.USAGE, "--from-set compares whole tables: leave out --filter, --select, "
                    + "--since and the partition options");
        }
        if (report != null && onlyTable == null) {
            throw new UserError(UserError.USAGE, "--report goes with --from-set only for one --source-table");
        }
        BackupSets sets = new BackupSets(root);
        SetIndex set;
        List<SetIndex> chain;
        try {
            set = sets.read(id);
            chain = sets.chain(id);
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
        List<String> tables = set.tables().stream().filter(SetIndex.Table::ok).map(SetIndex.Table::table)
                .filter(t -> onlyTable == null || t.equals(onlyTable)).toList();
        if (tables.isEmpty()) {
            throw new UserError(UserError.NOT_FOUND, "backup set " + id + " holds no table " + onlyTable);
        }
        TableStore source = sourceAccount.store(new Accounts(env::get));
        int worst = 0;
        int equal = 0;
        for (String table : tables) {
            System.out.printf("table %s of backup set %s (%s):%n", table, id, set.kind());
            ExportComparer comparer;
            List<RestorePlan.Step> steps;
            Manifest keyList;
            try {
                steps = RestorePlan.check(sets, chain, table).steps();
                boolean incremental = set.table(table).since() != null;
                BackupStore keys = incremental ? sets.keys(id, table) : null;
                keyList = incremental ? RestorePlan.manifest(keys, null) : null;
                comparer = ExportComparer.layered(steps.stream().map(RestorePlan.Step::store).toList(),
                        steps.stream().map(RestorePlan.Step::manifest).toList(), keys, keyList);
            } catch (BackupException e) { // a damaged table of the set: said, and the next tables still compared
                System.out.println("  NOT compared: " + e.getMessage());
                worst = UserError.FAILED;
                continue;
            }
            Manifest full = steps.getFirst().manifest(); // its selection: the whole table
            if (!exists(source, table)) { // deleted since the backup: what this command is there to find
                long rows = keyList != null ? keyList.totalRows() : full.totalRows();
                System.out.printf("  the live table %s does not exist: all %s of the set are missing from it%n", table,
                        ProgressPrinter.plural(rows, "row"));
                worst = worst == 0 ? UserError.DIFFERENT : worst;
                continue;
            }
            int code = new ExportVerify(steps.getLast().store(), report).run(full, comparer, sourceAccount, table, scan,
                    cluster, env, null);
            equal += code == 0 ? 1 : 0;
            worst = code == UserError.FAILED || worst == 0 ? code : worst; // 1 (not complete) wins over 7
        }
        System.out.printf("backup set %s: %d of %s equal to the live tables%n", id, equal,
                ProgressPrinter.plural(tables.size(), "table"));
        return worst;
    }

    private static boolean exists(TableStore source, String table) {
        try {
            return Checks.retried(source).tableExists(table);
        } catch (TableStoreException e) {
            throw new UserError(UserError.forStatus(e.status()), "cannot read the source table " + table + ": "
                    + e.getMessage());
        }
    }
}
