package io.tablescan.bench;

import io.tablescan.cli.TablescanCommand;
import picocli.CommandLine;

/**
 * The bench jar's entry point: every command of ./tablescan, with the real {@code bench} in place of the
 * tool's placeholder (the container image has the tool without this module).
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        TablescanCommand.main(args, BenchMain::commandLine);
    }

    /** The tool's command tree with the bench command; it answers -V with the tool's version like the others. */
    public static CommandLine commandLine() {
        CommandLine cli = TablescanCommand.commandLine();
        cli.getCommandSpec().removeSubcommand("bench");
        CommandLine bench = new CommandLine(new BenchCommand());
        bench.getCommandSpec().version(cli.getCommandSpec().version());
        cli.addSubcommand(bench);
        return cli;
    }
}
