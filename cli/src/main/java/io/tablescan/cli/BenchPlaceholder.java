package io.tablescan.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * Listed so that the help shows it: the benchmarks live in the bench module (with the in-memory table service
 * and the charts), which the container image leaves out. In a source checkout the ./tablescan script runs
 * {@code bench} with the bench jar, whose main puts the real command in this one's place. Reaching this class
 * means the tool was run without the script, e.g. in the image.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = BenchPlaceholder.DESCRIPTION)
public final class BenchPlaceholder implements Callable<Integer> {
    /** The bench command's description, shared with it so that both list it alike. */
    public static final String DESCRIPTION = "Copies a package-like table through Kafka and the three workers, "
            + "verifies the copy exactly, and measures it. Scenarios: pipeline (in-memory tables, no latency: the "
            + "pipeline's own ceiling), latency (100 ms a request: serial against prefix), azurite (a direct copy "
            + "without Kafka as the service's ceiling, then prefix and serial), seed-replica (the reference's cloud "
            + "run: 3,558,594 rows, 100 ms a request, 20,000 entities/s per account and 2,000/s per partition), "
            + "export (a table to files on local disk, both stages) and import (those files into a checking table).";

    @Unmatched
    List<String> arguments; // whatever follows, the answer is the same one line

    @Override
    public Integer call() {
        throw new UserError(UserError.USAGE, "the bench runs from a source checkout: ./tablescan bench (it is not in "
                + "the container image)");
    }
}
