package io.tablescan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The delete's question at the terminal says which rows of which table it deletes, before the name is typed. */
class DeletePromptTest {
    private static String prompt(String... args) {
        DeleteCommand command = new DeleteCommand();
        new CommandLine(command).parseArgs(args);
        command.choice.job(command.scan, "delete"); // --older-than joins the filter, as the command does
        return command.choice.prompt("prod", "Logs", command.scan);
    }

    @Test
    void theQuestionNamesTheSelection() {
        assertThat(prompt("--source-table", "Logs", "--older-than", "2026-01-01", "--partition-prefix", "app1"))
                .isEqualTo("This deletes the rows of prod/Logs selected by filter Timestamp lt "
                        + "datetime'2026-01-01T00:00:00Z'; partitions prefix app1 (--dry-run counts them first). Type "
                        + "the table name to go on: ");
        assertThat(prompt("--source-table", "Logs", "--all"))
                .startsWith("This deletes every row of prod/Logs (--dry-run counts them first).");
    }
}
