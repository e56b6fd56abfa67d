package io.tablescan.rate;

import io.tablescan.spi.TableStoreException;

/**
 * A request that gave up waiting for its scan's rate because this process's workers stop: it was not sent, and its
 * item is left undone for whoever consumes it next (a rerun), not failed. Not transient: no retry waits for it.
 */
public final class WaitStoppedException extends TableStoreException {
    public WaitStoppedException() {
        super("not sent: the workers stop (it waited for the scan's rate cap)", 0, false, null);
    }

    /** Whether {@code e}, or a cause of it, is one: a retrying or guarding layer may have wrapped it. */
    public static boolean in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof WaitStoppedException) {
                return true;
            }
        }
        return false;
    }
}
