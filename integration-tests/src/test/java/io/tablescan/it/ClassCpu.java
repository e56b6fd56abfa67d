package io.tablescan.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The CPU time a test class cost, written to {@code target/class-cpu/PID.tsv} for {@code bin/slowest-tests.sh}:
 * this JVM's own, its children's that ended (reaped, as the kernel sums them) and the live children's (Azurite, a
 * shared cluster). On two cores CPU sets the suite's pace, and a class's wall time hides that: a class waiting on
 * a rate cap costs little, one whose children compile and query costs much. A nested class has a line of its own
 * (Outer$Nested), inside its outer class's. Registered for every class by
 * {@code META-INF/services} (junit-platform.properties turns that on); Linux only, elsewhere it writes nothing.
 */
public final class ClassCpu implements BeforeAllCallback, AfterAllCallback {
    private static final Path STAT = Path.of("/proc/self/stat");
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ClassCpu.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        if (Files.isReadable(STAT)) {
            context.getStore(NS).put(context.getUniqueId(), cpu());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Duration start = context.getStore(NS).get(context.getUniqueId(), Duration.class);
        if (start == null) {
            return;
        }
        Duration spent = cpu().minus(start);
        Path file = Path.of("target", "class-cpu", ProcessHandle.current().pid() + ".tsv");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.format("%.1f\t%s%n", spent.toMillis() / 1000.0,
                    context.getRequiredTestClass().getName()), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This JVM's CPU, its reaped children's, and its live descendants' so far. */
    private static Duration cpu() {
        long self = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        Duration live = ProcessHandle.current().descendants()
                .map(p -> p.info().totalCpuDuration().orElse(Duration.ZERO)).reduce(Duration.ZERO, Duration::plus);
        return Duration.ofNanos(self).plus(reapedChildren()).plus(live);
    }

    /** cutime and cstime of /proc/self/stat (fields 16 and 17), in clock ticks of 1/100 s. */
    private static Duration reapedChildren() {
        try {
            String stat = Files.readString(STAT);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
            return Duration.ofMillis(ticks * 10);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
