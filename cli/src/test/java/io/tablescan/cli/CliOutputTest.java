package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What a command printed, told apart from the test JVM's log lines that land in the same stream. */
class CliOutputTest {
    @Test
    void aLogEventInTheMiddleOfACommandsOutputIsNotPartOfWhatItPrinted() {
        Cli.Run run = Cli.capture(() -> {
            System.out.println("scan-20261126-053219-be0d");
            LoggerFactory.getLogger("org.apache.kafka.test").warn("an in-process broker's warning",
                    new IllegalStateException("first line\nsecond line"));
            System.out.println("done");
            return 0;
        });

        assertThat(run.out()).as("the event did land in the stream").contains("an in-process broker's warning")
                .contains("second line");
        assertThat(run.printed()).containsExactly("scan-20261126-053219-be0d", "done");
    }
}
