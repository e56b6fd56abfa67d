package io.tablescan.cli;

import io.tablescan.backup.Manifest;
import io.tablescan.schema.ScanSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The most recent finished export of the same rows (account, table, filter, partition bounds) in a folder next to
 * an export's target folder, as a nightly export to /backups/DATE leaves them: its row count is what the new export
 * will likely read, for an estimate of the time left. A folder target only; none found is no estimate.
 */
record PreviousExport(Path folder, long rows) {
    String describe() {
        return "the export in " + folder;
    }

    /** The one for an export of {@code spec}'s rows of account {@code account} into {@code target}, if any. */
    static Optional<PreviousExport> find(String target, String account, ScanSpec spec) {
        if (target == null) {
            return Optional.empty();
        }
        Path parent = Path.of(target).toAbsolutePath().normalize().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return Optional.empty();
        }
        try (Stream<Path> siblings = Files.list(parent)) {
            return siblings.limit(10_000).map(dir -> read(dir, account, spec)).flatMap(Optional::stream)
                    .max(Comparator.comparing(Found::start)).map(Found::export);
        } catch (IOException | RuntimeException e) { // an unreadable folder gives no estimate, and no error
            return Optional.empty();
        }
    }

    private record Found(PreviousExport export, Instant start) {}

    private static Optional<Found> read(Path dir, String account, ScanSpec spec) {
        Path file = dir.resolve(Manifest.NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Manifest m = Manifest.parse(Files.readAllBytes(file));
            boolean same = Objects.equals(m.sourceAccount(), account)
                    && Objects.equals(m.sourceTable(), spec.getSource().getTable())
                    && Objects.equals(m.filter(), spec.getRowFilter())
                    && Objects.equals(m.fromPartition(), spec.getLowerPartition())
                    && Objects.equals(m.toPartition(), spec.getUpperPartition());
            return same && m.totalRows() > 0
                    ? Optional.of(new Found(new PreviousExport(dir, m.totalRows()), Instant.parse(m.startTime())))
                    : Optional.empty();
        } catch (IOException | RuntimeException e) { // not an export of ours, or an unreadable one
            return Optional.empty();
        }
    }
}
