package io.tablescan.cli;

import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** How long the waiting commands (start --wait, status --watch, retry --wait) wait before they give up. */
final class WaitOptions {
    /** No --timeout: wait until the scan ends. A year stands for "forever" and keeps Instant arithmetic safe. */
    static final Duration FOREVER = Duration.ofDays(365);

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Give up waiting after this long (90s, 10m, 2h) and exit 1; the scan goes on. "
                    + "Default: wait until the scan ends.")
    Duration timeout;

    /** A --timeout is for waiting: without the option that waits it would be silently ignored. */
    void only(boolean waiting, String option) {
        if (timeout != null && !waiting) {
            throw new UserError(UserError.USAGE, "--timeout needs " + option);
        }
    }

    /**
     * Follows the scan with the printer until {@code until} holds; past the timeout, one line and exit 1.
     */
    ScanTotals await(ScanStatusReader reader, String scanId, Predicate<ScanTotals> until, ProgressPrinter printer) {
        ScanTotals t = reader.await(scanId, until, timeout == null ? FOREVER : timeout, printer.interval(),
                printer::progress);
        if (!until.test(t)) {
            printer.endLine();
            throw new UserError(UserError.FAILED, "gave up waiting after " + text(timeout) + ": scan " + scanId + " "
                    + (t.started() ? "is still running (" + ProgressPrinter.plural(t.openItems(), "open item") + ")"
                            : "is not recorded by any ledger")
                    + "; it goes on without this command");
        }
        return t;
    }

    static String text(Duration d) {
        long s = d.toSeconds();
        return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /** A positive whole number of seconds, minutes or hours: {@code 90s}, {@code 10m}, {@code 2h}. */
    static final class DurationConverter implements ITypeConverter<Duration> {
        private static final Pattern FORM = Pattern.compile("(\\d{1,9})([smh])");

        @Override
        public Duration convert(String value) {
            Matcher m = FORM.matcher(value.trim().toLowerCase(Locale.ROOT));
            long n = m.matches() ? Long.parseLong(m.group(1)) : 0;
            if (n == 0) {
                // ParameterErrors says what a duration is; the value itself is never repeated
                throw new TypeConversionException("not a duration");
            }
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
    }
}
