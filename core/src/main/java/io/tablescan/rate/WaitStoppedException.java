package io.tablescan.rate;

import io.tablescan.spi.TableStoreException;

/**
 * A request that gave up waiting for its scan's rate: it was not sent. Either this process's workers stop (its item is
 * left undone for whoever consumes it next, a rerun) or the scan was cancelled and the item had written nothing (the
 * item is skipped, as the scan's later items are). Not failed, and not transient: no retry waits for it.
 */
public final class WaitStoppedException extends TableStoreException {
    private final boolean cancelled;

    /** The workers stop. */
    public WaitStoppedException() {
        this(false);
    }

    /** The workers stop ({@code cancelled} false), or the request's scan was cancelled (true). */
    public WaitStoppedException(boolean cancelled) {
        super(cancelled ? "not sent: the scan was cancelled (it waited for the scan's rate cap)"
                : "not sent: the workers stop (it waited for the scan's rate cap)", 0, false, null);
        this.cancelled = cancelled;
    }

    /** Whether {@code e}, or a cause of it, is one: a retrying or guarding layer may have wrapped it. */
    public static boolean in(Throwable e) {
        return find(e) != null;
    }

    /** Whether {@code e}, or a cause of it, is one given up because its scan was cancelled. */
    public static boolean cancelledIn(Throwable e) {
        WaitStoppedException found = find(e);
        return found != null && found.cancelled;
    }

    private static WaitStoppedException find(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof WaitStoppedException w) {
                return w;
            }
        }
        return null;
    }
}
