package io.tablescan.job;

import java.time.Instant;
import java.util.Map;

/**
 * What a user asked a job to do, as a command read it: the checks of {@link Job#validate} see this, whichever
 * command started the job.
 *
 * @param named how the command named the job, for its messages ("--mirror", "verify")
 * @param toTable whether the rows go to (or are compared with) a destination table
 * @param filter the user's --filter (null: none)
 * @param since the user's --since (null: none)
 * @param options the job's options
 */
public record JobRequest(String named, boolean toTable, String filter, Instant since, Map<String, String> options) {
    public JobRequest {
        options = Map.copyOf(options);
    }

    public JobRequest(String named, boolean toTable, String filter, Instant since) {
        this(named, toTable, filter, since, Map.of());
    }

    /** The one-line reason a request is refused; a user's mistake, shown without a stack trace. */
    public static final class Refused extends IllegalArgumentException {
        public Refused(String message) {
            super(message);
        }
    }

    /** Refused unless the request names a destination table. */
    public void needsTable(String why) {
        if (!toTable) {
            throw new Refused(named + " needs --dest-table: " + why);
        }
    }

    /** Refused when --since was given. */
    public void noSince(String why) {
        if (since != null) {
            throw new Refused(named + " takes no --since: " + why);
        }
    }

    /** Refused when --filter was given. */
    public void noFilter(String why) {
        if (filter != null) {
            throw new Refused(named + " takes no --filter: " + why);
        }
    }

    /** Refused when an option is not among the job's. */
    public void onlyOptions(Job job) {
        for (String option : options.keySet()) {
            if (!job.options().contains(option)) {
                throw new Refused(job.name() + " takes no option " + option);
            }
        }
    }
}
