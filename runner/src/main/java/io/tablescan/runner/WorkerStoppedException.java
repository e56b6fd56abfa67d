package io.tablescan.runner;

/** A worker of this process stopped while its scan ran, so the scan cannot go on here: one line for the user. */
public final class WorkerStoppedException extends IllegalStateException {
    public WorkerStoppedException(String message) {
        super(message);
    }

    /** Thrown when {@code pipeline} lost a worker before the scan ended; {@code after} says what the user can do. */
    static void check(LocalPipeline pipeline, boolean ended, String after) {
        String failure = pipeline.failure();
        if (!ended && failure != null) {
            throw new WorkerStoppedException(failure + "; " + after);
        }
    }
}
