package io.tablescan.spi;

/**
 * A write that failed. Transient failures (throttling, timeouts, I/O) are retried by the worker with backoff;
 * permanent ones (bad input, no permission, an unknown sink) park the batch in the dead-letter topic at once.
 * Any other exception a sink throws counts as permanent. A throttled failure (the target asked to slow down) is
 * transient and counted apart, so a scan's summary shows when its sink is the bottleneck.
 */
public class SinkException extends RuntimeException {
    private final boolean transientFailure;
    private final boolean throttled;

    public SinkException(String message, boolean transientFailure, Throwable cause) {
        this(message, transientFailure, false, cause);
    }

    protected SinkException(String message, boolean transientFailure, boolean throttled, Throwable cause) {
        super(message, cause);
        this.transientFailure = transientFailure || throttled;
        this.throttled = throttled;
    }

    public static SinkException permanent(String message) {
        return new SinkException(message, false, null);
    }

    public static SinkException transientFailure(String message, Throwable cause) {
        return new SinkException(message, true, cause);
    }

    /** The target refused for load (HTTP 429 or 503, say): retried like any transient failure. */
    public static SinkException throttled(String message, Throwable cause) {
        return new SinkException(message, true, true, cause);
    }

    public boolean isThrottled() {
        return throttled;
    }

    public boolean isTransient() {
        return transientFailure;
    }
}
