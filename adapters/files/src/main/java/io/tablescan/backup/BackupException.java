package io.tablescan.backup;

/** An export or import that cannot go on: its message is one line for the user, with no secret in it. */
public final class BackupException extends RuntimeException {
    /** What kind of failure, for the command's exit code. */
    /** IN_USE: the target is being written by another export, or holds a finished one. */
    public enum Kind { BAD_INPUT, CORRUPT, NOT_FOUND, DENIED, UNREACHABLE, FAILED, IN_USE }

    private final Kind kind;

    public BackupException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
