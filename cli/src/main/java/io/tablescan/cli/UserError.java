package io.tablescan.cli;

/** A mistake or a condition the user can fix: printed as one line, exits with its code, no stack trace. */
public final class UserError extends RuntimeException {
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int UNREACHABLE = 3;
    public static final int NOT_FOUND = 4;
    public static final int CANCELLED = 5;

    private final int exitCode;

    public UserError(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
