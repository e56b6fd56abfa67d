package io.tablescan.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * Listed so that the help shows it: the ./tablescan launcher script runs the test suite (./mvnw verify) in a
 * source checkout before Java starts. Reaching this class means the jar was run without the script.
 */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = "Runs the test suite (./mvnw verify) with a real Kafka broker and Azurite: the default tier, or "
                + "--fast (unit tests only) or --release (everything); how long each takes: see the README. Handled by the "
                + "./tablescan script in a source checkout; extra arguments go to Maven.")
final class TestCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError(UserError.USAGE, "the test suite runs from a source checkout: ./tablescan test");
    }
}
