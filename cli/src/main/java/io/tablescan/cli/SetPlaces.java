package io.tablescan.cli;

import io.tablescan.backup.BackupException;
import io.tablescan.backup.BackupSets;
import java.util.List;

/**
 * What the backup set commands say about the place they were given when it is not as expected: a damaged set
 * (named, and left out: the others stay usable), and a place that holds no set (what it holds instead, and a place
 * nearby that holds sets, as a mistyped --from-prefix or --to-prefix leaves).
 */
final class SetPlaces {
    private SetPlaces() {}

    /** One warning line per damaged set: it is not used, the others are. */
    static void warnDamaged(List<BackupSets.Listed> listed) {
        for (BackupSets.Listed set : listed) {
            if (set.damaged()) {
                System.err.println("warning: backup set " + set.id() + " is damaged and left out: " + set.damage());
            }
        }
    }

    /**
     * For a place with no set: exit 4 with one line when a place nearby holds sets (a mistyped name is not an empty
     * catalog); else null, or the words that say what the place holds instead of sets.
     */
    static String noSet(BackupSets sets) {
        BackupSets.Elsewhere elsewhere = elsewhere(sets);
        if (elsewhere.near() != null) {
            throw new UserError(UserError.NOT_FOUND, "no backup set in " + sets.root().describe() + others(elsewhere)
                    + "; " + elsewhere.near() + " holds " + ProgressPrinter.plural(elsewhere.nearSets(), "set")
                    + ": give that place");
        }
        return elsewhere.others() == 0 ? null : "it holds " + ProgressPrinter.plural(elsewhere.others(),
                "other file or folder", "other files or folders") + ", none a backup set (a folder named by its start "
                + "time, e.g. 20261125T020000Z-3fa1/)";
    }

    /** Where sets are nearby, for a line that already says this place has none; "" when nowhere. */
    static String hint(BackupSets sets) {
        BackupSets.Elsewhere elsewhere = elsewhere(sets);
        return elsewhere.near() == null ? "" : " (" + elsewhere.near() + " holds "
                + ProgressPrinter.plural(elsewhere.nearSets(), "set") + ": a mistyped place?)";
    }

    private static String others(BackupSets.Elsewhere elsewhere) {
        return elsewhere.others() == 0 ? "" : " (it holds " + ProgressPrinter.plural(elsewhere.others(),
                "other file or folder", "other files or folders") + ")";
    }

    private static BackupSets.Elsewhere elsewhere(BackupSets sets) {
        try {
            return sets.elsewhere();
        } catch (BackupException e) {
            throw BackupLocations.error(e);
        }
    }
}
