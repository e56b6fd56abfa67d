package io.tablescan.spi;

/**
 * A failed table request. The message names the status and the service's error code, never a URL or a
 * credential. Transient failures (408, 429, 500, 503, 504, I/O) may succeed when retried.
 */
public class TableStoreException extends RuntimeException {
    private final int status;
    private final boolean transientFailure;

    public TableStoreException(String message, int status, boolean transientFailure, Throwable cause) {
        super(message, cause, false, false);
        this.status = status;
        this.transientFailure = transientFailure;
    }

    public static boolean isTransientStatus(int status) {
        return status == 408 || status == 429 || status == 500 || status == 503 || status == 504;
    }

    /** HTTP status, or 0 when no response came (I/O failure). */
    public int status() {
        return status;
    }

    public boolean isTransient() {
        return transientFailure;
    }
}
