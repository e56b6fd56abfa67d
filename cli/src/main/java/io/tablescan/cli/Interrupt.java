package io.tablescan.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) as a request to stop, for commands that own an embedded broker, a ledger and workers. The
 * JVM's own handler would exit through shutdown hooks while the pipeline still runs: the ledger's state folder
 * stays behind, the progress line is left open and a scan on a cluster is never cancelled. With this handler
 * the command notices the request, unwinds normally (closing and deleting all it started) and exits 130.
 * A second Ctrl-C exits at once, as before.
 */
final class Interrupt implements AutoCloseable {
    private static final Signal INT = new Signal("INT");
    private final AtomicBoolean requested = new AtomicBoolean();
    private final SignalHandler previous;

    private Interrupt(boolean install) {
        SignalHandler old = null;
        if (install) {
            try {
                old = Signal.handle(INT, signal -> {
                    if (!requested.compareAndSet(false, true)) {
                        System.exit(UserError.INTERRUPTED);
                    }
                });
            } catch (IllegalArgumentException e) {
                // The JVM does not let us handle SIGINT (-Xrs): Ctrl-C keeps its default behaviour.
            }
        }
        this.previous = old;
    }

    /** Handles SIGINT until closed. */
    static Interrupt onSigint() {
        return new Interrupt(true);
    }

    /** Never requested: for callers with no terminal to interrupt them (the bench, tests). */
    static Interrupt never() {
        return new Interrupt(false);
    }

    boolean requested() {
        return requested.get();
    }

    @Override
    public void close() {
        if (previous != null) {
            Signal.handle(INT, previous);
        }
    }
}
