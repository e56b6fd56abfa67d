package io.tablescan.cli;

import io.tablescan.scanner.Keys;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.spi.QueryOptions;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** The options every command that starts a scan shares. */
final class ScanOptions {
    @Option(names = "--page-size", defaultValue = "" + ScanSpecs.DEFAULT_PAGE_SIZE, paramLabel = "N",
            description = "Rows per query page, 1 to " + QueryOptions.MAX_PAGE_SIZE + " (default ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--strategy", defaultValue = "PREFIX", paramLabel = "STRATEGY",
            description = "PREFIX (parallel) or SERIAL (one chain, for comparison) (default ${DEFAULT-VALUE}).")
    ScanStrategy strategy;

    @Option(names = "--filter", paramLabel = "ODATA",
            description = "Only the rows this OData filter selects, e.g. \"Size gt 100 and Kind eq 'book'\": ANDed to "
                    + "every query, so exactly the rows one query with this filter returns. One expression, at most "
                    + "11 comparisons (10 with --since).")
    String filter;

    @Option(names = "--select", split = ",", paramLabel = "NAME",
            description = "Only these properties, comma-separated (PartitionKey and RowKey are always read).")
    List<String> select;

    @Option(names = "--partition-prefix", paramLabel = "P",
            description = "Only the partitions whose PartitionKey starts with P (not with --from/--to-partition).")
    String partitionPrefix;

    @Option(names = "--from-partition", paramLabel = "A",
            description = "Only the partitions at or above A, in PartitionKey order.")
    String fromPartition;

    @Option(names = "--to-partition", paramLabel = "B",
            description = "Only the partitions below B (B itself not included).")
    String toPartition;

    @Option(names = "--since", paramLabel = "TIME", converter = Since.class,
            description = "Only the rows the service last wrote at or after TIME (its Timestamp), e.g. "
                    + "2026-11-23T10:00:00Z or 2026-11-23: for incremental copies; a complete copy prints the "
                    + "value for the next one.")
    Instant since;

    @CommandLine.Mixin
    RateOptions rates = new RateOptions();

    /** Checks the options: one clear line for the first mistake, before anything is read. */
    void validate() {
        Checks.pageSize(pageSize);
        Checks.filter(rowFilter());
        Checks.select(select);
        rates.validate();
        if (partitionPrefix != null && (fromPartition != null || toPartition != null)) {
            throw new UserError(UserError.USAGE, "give --partition-prefix or --from-partition/--to-partition, not both");
        }
        if (fromPartition != null && toPartition != null && fromPartition.compareTo(toPartition) >= 0) {
            throw new UserError(UserError.USAGE, "--from-partition must be below --to-partition (PartitionKey order)");
        }
    }

    /** The filter every query of the scan ANDs to its key bounds: --since's, and --filter. */
    String rowFilter() {
        if (since == null) {
            return filter;
        }
        String timestamp = "Timestamp ge datetime'" + DateTimeFormatter.ISO_INSTANT.format(since) + "'";
        return filter == null ? timestamp : timestamp + " and (" + filter + ")";
    }

    /** The scan's spec with these options. */
    ScanSpecs.Copy applyTo(ScanSpecs.Copy spec) {
        String lower = partitionPrefix != null ? partitionPrefix : fromPartition;
        String upper = partitionPrefix != null ? Keys.successor(partitionPrefix) : toPartition;
        return spec.pageSize(pageSize).strategy(strategy).filter(rowFilter()).select(select).partitions(lower, upper)
                .limits(rates.limits());
    }

    /** A time as ISO-8601: an instant with its offset (Z or +01:00), or a date (midnight UTC). */
    static final class Since implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException notATime) {
                try {
                    return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
                } catch (DateTimeParseException notADate) {
                    throw new CommandLine.TypeConversionException("not a time"); // the message names the form
                }
            }
        }
    }
}
