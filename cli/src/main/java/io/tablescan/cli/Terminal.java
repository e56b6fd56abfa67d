package io.tablescan.cli;

import java.io.Console;

/** Whether standard output is an interactive terminal (then progress is drawn in place). */
final class Terminal {
    private Terminal() {}

    static boolean isInteractive() {
        Console console = System.console();
        if (console == null || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            // Console.isTerminal() exists from Java 22, when System.console() stopped being null for pipes.
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // Java 21: a console exists only for a terminal
        }
    }
}
