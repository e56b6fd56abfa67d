package io.tablescan.sink;

import io.tablescan.spi.SinkException;

/** A sink write that failed for good, and how many attempts it took (reported with the parked batch). */
public final class FailedWriteException extends SinkException {
    private final int attempts;

    FailedWriteException(SinkException cause, int attempts) {
        super(cause.getMessage() + (attempts > 1 ? " (after " + attempts + " attempts)" : ""), cause.isTransient(),
                cause.isThrottled(), cause);
        this.attempts = attempts;
    }

    public int attempts() {
        return attempts;
    }
}
