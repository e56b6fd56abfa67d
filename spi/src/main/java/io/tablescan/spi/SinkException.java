package io.tablescan.spi;

/**
 * A write that failed. Transient failures (throttling, timeouts, I/O) are retried by the worker with backoff;
 * permanent ones (bad input, no permission, an unknown sink) park the batch in the dead-letter topic at once.
 * Any other exception a sink throws counts as permanent.
 */
public class SinkException extends RuntimeException {
    private final boolean transientFailure;

    public SinkException(String message, boolean transientFailure, Throwable cause) {
        super(message, cause);
        this.transientFailure = transientFailure;
    }

    public static SinkException permanent(String message) {
        return new SinkException(message, false, null);
    }

    public static SinkException transientFailure(String message, Throwable cause) {
        return new SinkException(message, true, cause);
    }

    public boolean isTransient() {
        return transientFailure;
    }
}
