package io.tablescan.backup;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The backup sets under one folder or container prefix: each set is a sub-folder named by its id (its start time,
 * so names sort by time) holding one export per table and {@code set.json}, written last. The catalog reads only
 * the indexes; a set folder without one is a set that never finished (or is being written).
 */
public final class BackupSets {
    private static final java.util.regex.Pattern SET_FOLDER =
            java.util.regex.Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{4}/");
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * A set as listed: its index, or null for a folder with none (unfinished) or one whose index cannot be read
     * ({@code damage} says why: such a set is never used, and never pruned, since what it is cannot be known).
     */
    public record Listed(String id, SetIndex index, String damage) {
        public boolean complete() {
            return index != null && index.complete();
        }

        public boolean damaged() {
            return damage != null;
        }

        /** When the set started: its index's time, else the time its id names (to the second). */
        public String started() {
            if (index != null) {
                return index.startTime().replaceAll("\\.\\d+Z$", "Z");
            }
            return Instant.from(ID_TIME.parse(id.substring(0, 16))).toString();
        }
    }

    /**
     * Where sets may be when this place holds none: {@code others} names in it that are not sets, and a place
     * nearby that holds sets ({@code near}, described as the user names it, with {@code nearSets} sets): a
     * sub-folder, or a sibling whose name is close to this one's (a mistyped prefix).
     */
    public record Elsewhere(int others, String near, int nearSets) {}

    private final BackupStore root;

    public BackupSets(BackupStore root) {
        this.root = root;
    }

    public BackupStore root() {
        return root;
    }

    /** A new set id: its start time to the second and 4 random hex digits. */
    public static String newId(Instant start) {
        return ID_TIME.format(start) + "-" + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
    }

    /** The set's folder. */
    public BackupStore set(String id) {
        return root.at(id);
    }

    /** The export of {@code table} in set {@code id}. */
    public BackupStore table(String id, String table) {
        return root.at(id).at(table);
    }

    /** The keys of every row of {@code table} in incremental set {@code id}. */
    public BackupStore keys(String id, String table) {
        return root.at(id).at(table + ".keys");
    }

    /**
     * Every set folder, oldest first, with its index when it has one. Only folders named as set ids are sets: other
     * folders in the same place (an export, say) are never listed, shown or pruned.
     */
    public List<Listed> list() {
        List<Listed> sets = new ArrayList<>();
        for (String name : root.list()) {
            if (!SET_FOLDER.matcher(name).matches()) {
                continue;
            }
            String id = name.substring(0, name.length() - 1);
            BackupStore set = root.at(id);
            if (!set.exists(SetIndex.NAME)) {
                sets.add(new Listed(id, null, null));
                continue;
            }
            try {
                sets.add(new Listed(id, read(id), null));
            } catch (BackupException e) { // one damaged set: named, the others stay usable
                if (e.kind() == BackupException.Kind.UNREACHABLE) {
                    throw e;
                }
                sets.add(new Listed(id, null, e.getMessage()));
            }
        }
        return sets;
    }

    /** The sets' count in {@code store}: folders named as set ids. */
    private static long setsIn(BackupStore store) {
        return store.list().stream().filter(name -> SET_FOLDER.matcher(name).matches()).count();
    }

    /**
     * For a place that holds no set: what else it holds, and the nearest place that holds sets (a sub-folder, else a
     * sibling whose name differs by at most 2 characters, case aside), or null.
     */
    public Elsewhere elsewhere() {
        List<String> here = root.list();
        int others = (int) here.stream().filter(name -> !SET_FOLDER.matcher(name).matches()).count();
        for (String name : here.stream().filter(n -> n.endsWith("/")).limit(20).toList()) {
            long count = setsIn(root.at(name.substring(0, name.length() - 1)));
            if (count > 0) {
                return new Elsewhere(others, root.at(name.substring(0, name.length() - 1)).describe(), (int) count);
            }
        }
        BackupStore parent = root.parent();
        String leaf = root.leaf();
        if (parent != null && leaf != null) {
            for (String name : parent.list()) {
                String sibling = name.endsWith("/") ? name.substring(0, name.length() - 1) : null;
                if (sibling != null && !sibling.equals(leaf) && close(sibling, leaf)) {
                    long count = setsIn(parent.at(sibling));
                    if (count > 0) {
                        return new Elsewhere(others, parent.at(sibling).describe(), (int) count);
                    }
                }
            }
        }
        return new Elsewhere(others, null, 0);
    }

    /** Two names at most 2 edits apart, case aside (Levenshtein). */
    static boolean close(String a, String b) {
        String x = a.toLowerCase(java.util.Locale.ROOT);
        String y = b.toLowerCase(java.util.Locale.ROOT);
        if (Math.abs(x.length() - y.length()) > 2) {
            return false;
        }
        int[] previous = new int[y.length() + 1];
        for (int j = 0; j <= y.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            int[] row = new int[y.length() + 1];
            row[0] = i;
            for (int j = 1; j <= y.length(); j++) {
                row[j] = Math.min(Math.min(row[j - 1], previous[j]) + 1,
                        previous[j - 1] + (x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1));
            }
            previous = row;
        }
        return previous[y.length()] <= 2;
    }

    /** The index of set {@code id}: NOT_FOUND when there is no such set, or it never finished. */
    public SetIndex read(String id) {
        if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,100}")) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, "'" + id + "' is not a backup set id");
        }
        BackupStore set = root.at(id);
        byte[] json;
        try {
            json = set.read(SetIndex.NAME);
        } catch (BackupException e) {
            if (e.kind() == BackupException.Kind.NOT_FOUND) {
                throw new BackupException(BackupException.Kind.NOT_FOUND, "no backup set " + id + " in "
                        + root.describe() + " (or it never finished: it has no " + SetIndex.NAME + ")");
            }
            throw e;
        }
        return SetIndex.parse(set.describe(SetIndex.NAME), json);
    }

    /**
     * The newest complete set, optionally the newest that started at or before {@code at}; NOT_FOUND if none. A
     * start counts to the second, as its id and {@code backups list} show it: the time listed selects that set.
     */
    public SetIndex latest(Instant at) {
        SetIndex found = null;
        for (Listed listed : list()) {
            if (listed.complete() && (at == null || !Instant.parse(listed.index().startTime())
                    .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).isAfter(at))) {
                found = listed.index();
            }
        }
        if (found == null) {
            throw new BackupException(BackupException.Kind.NOT_FOUND, "no complete backup set in " + root.describe()
                    + (at == null ? "" : " that started at or before " + at));
        }
        return found;
    }

    /** The sets a restore of {@code id} reads, its full base first and {@code id} last; each must be complete. */
    public List<SetIndex> chain(String id) {
        List<SetIndex> chain = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String next = id;
        while (next != null) {
            if (!seen.add(next)) {
                throw new BackupException(BackupException.Kind.CORRUPT, "backup set " + id + " builds on a loop of sets");
            }
            SetIndex index = read(next);
            if (!index.complete()) {
                throw new BackupException(BackupException.Kind.FAILED, "backup set " + next + (next.equals(id) ? ""
                        : ", which " + id + " builds on,") + " is not complete: a table of it failed");
            }
            chain.addFirst(index);
            next = index.incremental() ? index.base() : null;
        }
        return chain;
    }

    /**
     * The sets that retention deletes: every set but the newest {@code keepLast} complete ones and those that
     * started within {@code keepDays} of {@code now}, and never a set that a kept set builds on (directly or not).
     * The newest complete set is always kept: no rule leaves a place without a set to restore (a nightly job that
     * stopped for longer than {@code keepDays}). Unfinished sets are deleted only when older than the kept ones'
     * oldest, so never when no set is kept. A damaged set (its index cannot be read) is never deleted: it may be a
     * kept set's base, or the newest. Null limits keep nothing by that rule.
     */
    public List<String> expired(Integer keepLast, Integer keepDays, Instant now) {
        List<Listed> sets = list();
        Set<String> kept = new HashSet<>();
        List<Listed> complete = sets.stream().filter(Listed::complete).toList();
        if (!complete.isEmpty()) {
            kept.add(complete.getLast().id());
        }
        if (keepLast != null) {
            complete.subList(Math.max(0, complete.size() - keepLast), complete.size()).forEach(l -> kept.add(l.id()));
        }
        if (keepDays != null) {
            Instant cutoff = now.minus(Duration.ofDays(keepDays));
            complete.stream().filter(l -> !Instant.parse(l.index().startTime()).isBefore(cutoff))
                    .forEach(l -> kept.add(l.id()));
        }
        for (Listed listed : complete) { // the bases of kept incrementals, down to their full set
            if (kept.contains(listed.id())) {
                for (String base = listed.index().base(); base != null; base = baseOf(sets, base)) {
                    kept.add(base);
                }
            }
        }
        String oldestKept = sets.stream().map(Listed::id).filter(kept::contains).findFirst().orElse(null);
        List<String> expired = new ArrayList<>();
        for (Listed listed : sets) {
            boolean unfinishedAndNewer = listed.index() == null
                    && (oldestKept == null || listed.id().compareTo(oldestKept) > 0); // may be a backup running now
            if (!kept.contains(listed.id()) && !unfinishedAndNewer && !listed.damaged()) {
                expired.add(listed.id());
            }
        }
        return expired;
    }

    private static String baseOf(List<Listed> sets, String id) {
        for (Listed listed : sets) {
            if (listed.id().equals(id) && listed.index() != null) {
                return listed.index().base();
            }
        }
        return null;
    }

    /** Deletes a set: its index first (so it is never listed as complete half-deleted), then every file in it. */
    public void delete(String id) {
        BackupStore set = root.at(id);
        set.delete(SetIndex.NAME);
        deleteAll(set);
        root.delete(id); // the set's now empty directory; nothing on Blob
    }

    private static void deleteAll(BackupStore store) {
        for (String name : store.list()) {
            if (name.endsWith("/")) {
                String sub = name.substring(0, name.length() - 1);
                deleteAll(store.at(sub));
                store.delete(sub); // a folder's now empty directory; nothing on Blob
            } else {
                store.delete(name);
            }
        }
    }
}
