package io.tablescan.cli;

import io.tablescan.job.Summary;

/** A mistake or a condition the user can fix: printed as one line, exits with its code, no stack trace. */
public final class UserError extends RuntimeException {
    public static final int FAILED = Summary.FAILED;
    public static final int USAGE = 2;
    public static final int UNREACHABLE = 3;
    public static final int NOT_FOUND = 4;
    public static final int CANCELLED = Summary.CANCELLED;
    public static final int DENIED = 6;
    /** verify: the tables differ (the scan completed; the differences are exact). */
    public static final int DIFFERENT = Summary.DIFFERENT;
    /** Stopped by Ctrl-C (SIGINT): 128 + 2, the shell's convention. */
    public static final int INTERRUPTED = 130;

    /** The exit code for a storage failure: unreachable, denied (wrong key, no permission), or other. */
    public static int forStatus(int httpStatus) {
        return httpStatus == 0 ? UNREACHABLE : httpStatus == 401 || httpStatus == 403 ? DENIED : FAILED;
    }

    private final int exitCode;

    public UserError(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
