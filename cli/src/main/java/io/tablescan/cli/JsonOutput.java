package io.tablescan.cli;

import io.tablescan.job.Jobs;
import io.tablescan.status.Counters;
import io.tablescan.status.ScanTotals;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * {@code --json} of the commands that end with a summary (copy, verify, delete, export, import with a scan's
 * figures; backup and restore with their set's and tables'): the result for scripts as one JSON object on standard output; every line the command prints for people (progress, summary,
 * hints) goes to standard error instead. A command that stops with an error prints its one error line and no JSON.
 */
final class JsonOutput {
    /** The summary the command printed last (see {@link ScanSummary#print}): one command runs per process. */
    private static volatile ScanTotals summarized;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--json", description = "Print only the result on standard output, as one JSON object "
            + "(progress, summary and hints go to standard error).")
    boolean json;

    /** What the result names as the target, when not the scan's own (an export's files, not its staging topic). */
    private String target;
    /** What the result names as the job, when not the scan's own (an export, whose scan copies to a topic). */
    private String job;

    /** Called for every summary printed: the JSON gives the last one's figures. */
    static void summarized(ScanTotals totals) {
        summarized = totals;
    }

    JsonOutput target(String described) {
        this.target = described;
        return this;
    }

    JsonOutput job(String name) {
        this.job = name;
        return this;
    }

    /** Runs the command; with --json its standard output goes to standard error and the result comes at its end. */
    int around(Callable<Integer> command) throws Exception {
        summarized = null;
        return around(command, code -> of(summarized, code, target, job));
    }

    /**
     * For a command whose result is its own (backup, restore): the fields {@code result} gives once the command has
     * returned, then its exit code.
     */
    int aroundResult(Callable<Integer> command, Supplier<Map<String, Object>> result) throws Exception {
        return around(command, code -> {
            Map<String, Object> fields = new LinkedHashMap<>(result.get());
            fields.put("exitCode", code);
            try {
                return JSON.writeValueAsString(fields);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private int around(Callable<Integer> command, IntFunction<String> result) throws Exception {
        if (!json) {
            return command.call();
        }
        PrintStream stdout = System.out;
        int code;
        System.setOut(System.err);
        try {
            code = command.call();
        } finally {
            System.setOut(stdout);
        }
        stdout.println(result.apply(code)); // not after an error: the command threw, and its one line says why
        stdout.flush();
        return code;
    }

    /** The result: the scan's figures as its summary gave them, and the command's exit code. */
    static String of(ScanTotals t, int exitCode, String target, String job) {
        StringBuilder json = new StringBuilder("{");
        if (t != null && t.started()) {
            var spec = t.spec();
            field(json, "scanId", quoted(t.scanId()));
            field(json, "job", quoted(job != null ? job : Jobs.of(spec).name()));
            field(json, "source", quoted(spec.getSource().getAccount() + "/" + spec.getSource().getTable()));
            field(json, "target", quoted(target != null ? target : ProgressPrinter.target(spec, true)));
            field(json, "state", quoted(t.state().name()));
            field(json, "complete", Boolean.toString(t.complete()));
            field(json, "rowsRead", Long.toString(t.rowsRead()));
            field(json, "rowsWritten", Long.toString(t.rowsWritten()));
            field(json, "partitions", Long.toString(t.partitions()));
            field(json, "itemsFailed", Long.toString(t.itemsFailed()));
            field(json, "itemsSkipped", Long.toString(t.itemsSkipped()));
            field(json, "seconds", String.format(java.util.Locale.ROOT, "%.1f", t.elapsedMillis() / 1000.0));
            StringBuilder counters = new StringBuilder("{");
            for (Map.Entry<String, Long> c : new TreeMap<>(t.status().getCounters()).entrySet()) {
                if (!Counters.isBookkeeping(c.getKey())) { // a resume's marks are no count of the job's
                    field(counters, c.getKey(), Long.toString(t.counter(c.getKey())));
                }
            }
            field(json, "counters", counters.append('}').toString());
            field(json, "errors", "[" + String.join(",", t.errors().stream().map(JsonOutput::quoted).toList()) + "]");
        }
        field(json, "exitCode", Integer.toString(exitCode));
        return json.append('}').toString();
    }

    private static void field(StringBuilder json, String name, String value) {
        if (json.length() > 1) {
            json.append(',');
        }
        json.append(quoted(name)).append(':').append(value);
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    static String quoted(String text) {
        StringBuilder s = new StringBuilder("\"");
        for (char c : String.valueOf(text).toCharArray()) {
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> s.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return s.append('"').toString();
    }
}
