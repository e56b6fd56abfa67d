package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupSets;
import io.tablescan.backup.BackupStore;
import io.tablescan.backup.Importer;
import io.tablescan.backup.Manifest;
import io.tablescan.backup.SetIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a restore of one table from a set writes, every file checked first: the exports from the table's last full
 * backup in the set's chain up to the set, imported in that order, then the deletes: the keys those exports wrote
 * that the set's list of keys lacks (rows deleted since; only when the set is incremental for the table).
 */
record RestorePlan(String table, List<Step> steps, List<Key> deletes, long rowsAtSet) {
    /** Files checked at once per export. */
    private static final int CHECKERS = 4;

    /** One export to import, checked: its batches as the check counted them. */
    record Step(String setId, BackupStore store, Manifest manifest, long batches) {}

    record Key(String partitionKey, String rowKey) {}

    /** The rows of the exports, summed over the chain: a row written in several of them counts in each. */
    long rows() {
        return steps.stream().mapToLong(step -> step.manifest().totalRows()).sum();
    }

    /** Reads and checks everything the restore of {@code table} at the chain's last set needs. */
    static RestorePlan check(BackupSets sets, List<SetIndex> chain, String table) {
        List<SetIndex> used = new ArrayList<>();
        SetIndex.Table last = chain.getLast().table(table);
        for (int i = chain.size() - 1; i >= 0; i--) {
            SetIndex.Table entry = chain.get(i).table(table);
            if (entry == null || !entry.ok()) {
                throw new BackupException(BackupException.Kind.CORRUPT, "backup set " + chain.get(i).id() + ", which "
                        + chain.getLast().id() + " builds on, holds no export of table " + table);
            }
            used.addFirst(chain.get(i));
            if (entry.since() == null) {
                break;
            }
        }
        boolean deletes = last.since() != null;
        Set<Key> written = deletes ? ConcurrentHashMap.newKeySet() : null;
        List<Step> steps = new ArrayList<>();
        for (SetIndex set : used) {
            BackupStore store = sets.table(set.id(), table);
            try {
                Manifest manifest = manifest(store, set.table(table).manifestSha256());
                long batches = new Importer(store, CHECKERS).checkAll(manifest, row -> {
                    if (written != null) {
                        written.add(new Key(row.partitionKey(), row.rowKey()));
                    }
                });
                steps.add(new Step(set.id(), store, manifest, batches));
            } catch (BackupException e) {
                throw in("backup set " + set.id() + ", table " + table, e);
            }
        }
        List<Key> gone = new ArrayList<>();
        // The rows the table holds as the set saw it: a full export's rows; else the distinct keys the chain writes
        // less those it then deletes (an update in every incremental is one row, written once per export).
        long rowsAtSet = steps.getFirst().manifest().totalRows();
        if (deletes) {
            BackupStore keyStore = sets.keys(chain.getLast().id(), table);
            Set<Key> kept = ConcurrentHashMap.newKeySet();
            try {
                new Importer(keyStore, CHECKERS).checkAll(manifest(keyStore, null),
                        row -> kept.add(new Key(row.partitionKey(), row.rowKey())));
            } catch (BackupException e) {
                throw in("backup set " + chain.getLast().id() + ", key list of table " + table, e);
            }
            written.stream().filter(key -> !kept.contains(key)).forEach(gone::add);
            rowsAtSet = written.size() - gone.size();
        }
        return new RestorePlan(table, steps, gone, rowsAtSet);
    }

    /**
     * A failure of one export of a set, named by its set and table (a file's name alone says neither). A file the
     * set's index promises that is missing makes the set damaged (exit 1), not absent: the set exists.
     */
    static BackupException in(String where, BackupException e) {
        BackupException.Kind kind = e.kind() == BackupException.Kind.NOT_FOUND ? BackupException.Kind.CORRUPT : e.kind();
        return new BackupException(kind, where + ": " + e.getMessage()
                + (e.kind() == BackupException.Kind.NOT_FOUND ? " (the set is damaged)" : ""));
    }

    /** The export's manifest, which must be the one the set's index names when it names one. */
    static Manifest manifest(BackupStore store, String sha256) {
        if (!store.exists(Manifest.NAME)) { // the set's index promises it: the set is damaged, not unfinished
            throw new BackupException(BackupException.Kind.CORRUPT, "no " + Manifest.NAME + " in " + store.describe()
                    + " (the set is damaged)");
        }
        Manifest manifest = new Importer(store, 1).manifest();
        if (sha256 != null && !SetIndex.sha256(store.read(Manifest.NAME)).equals(sha256)) {
            throw new BackupException(BackupException.Kind.CORRUPT, store.describe(Manifest.NAME)
                    + " is not the manifest the set's index names (its SHA-256 differs)");
        }
        return manifest;
    }
}
