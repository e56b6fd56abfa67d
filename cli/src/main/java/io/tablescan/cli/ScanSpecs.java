package io.tablescan.cli;

import io.tablescan.job.Job;
import io.tablescan.job.Jobs;
import io.tablescan.jobs.CopyJob;
import io.tablescan.jobs.CountJob;
import io.tablescan.jobs.VerifyJob;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.SinkRef;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Builds the spec of a new scan. */
public final class ScanSpecs {
    /** The largest page: the fewest requests. */
    static final int DEFAULT_PAGE_SIZE = QueryOptions.MAX_PAGE_SIZE;
    static final int DEFAULT_PAGE_BUDGET = 5;

    private ScanSpecs() {}

    static String newScanId() {
        return "scan-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    /**
     * The spec of a new copy scan, each part named:
     * {@code ScanSpecs.copy().from(source).to(destination).pageSize(500).strategy(ScanStrategy.PREFIX).build()}.
     * Unless set, pages are {@value #DEFAULT_PAGE_SIZE} rows and the strategy is {@link ScanStrategy#PREFIX} (the
     * command line's defaults).
     */
    public static Copy copy() {
        return of(Jobs.named(CopyJob.NAME), Map.of());
    }

    /** The spec of a new count: {@code ScanSpecs.count().from(source).build()} (see {@link CountJob}). */
    public static Copy count() {
        return of(Jobs.named(CountJob.NAME), Map.of());
    }

    /**
     * The spec of a new verify: {@code ScanSpecs.verify().from(source).to(destination).build()} (see
     * {@link VerifyJob}).
     */
    public static Copy verify() {
        return of(Jobs.named(VerifyJob.NAME), Map.of());
    }

    /** The spec of a new scan of {@code job} with these options (checked by the job's command, see Job#validate). */
    public static Copy of(Job job, Map<String, String> options) {
        Copy spec = new Copy();
        spec.job = job;
        spec.options = Map.copyOf(options);
        return spec;
    }

    /** The parts of a scan's spec, for {@link #copy()}, {@link #count()}, {@link #verify()} and {@link #of}. */
    public static final class Copy {
        private TableRef source;
        private TableRef destination;
        private SinkRef sink;
        private int pageSize = DEFAULT_PAGE_SIZE;
        private ScanStrategy strategy = ScanStrategy.PREFIX;
        private String filter;
        private List<String> select;
        private String lowerPartition;
        private String upperPartition;
        private Job job;
        private boolean sourceSecondary;
        private Map<String, String> options;
        private Map<String, Long> limits;

        private Copy() {}

        /** Rate caps by direction ("read", "write"), rows/s for all workers together (null: none). */
        public Copy limits(Map<String, Long> limits) {
            this.limits = limits;
            return this;
        }

        /** The table scanned. */
        public Copy from(TableRef source) {
            this.source = source;
            return this;
        }

        /** The table written to (none when the scan's sink is another). */
        public Copy to(TableRef destination) {
            this.destination = destination;
            return this;
        }

        /** The sink the rows go to instead of a destination table (its options travel in the spec: no secret). */
        public Copy sink(SinkRef sink) {
            this.sink = sink;
            return this;
        }

        /** Rows per page read from the source. */
        /** Reads the source from its account's read-access secondary. */
        public Copy sourceSecondary(boolean secondary) {
            this.sourceSecondary = secondary;
            return this;
        }

        public Copy pageSize(int pageSize) {
            this.pageSize = pageSize;
            return this;
        }

        public Copy strategy(ScanStrategy strategy) {
            this.strategy = strategy;
            return this;
        }

        /** Only the rows this OData filter selects (null: every row). */
        public Copy filter(String filter) {
            this.filter = filter;
            return this;
        }

        /** Only these properties besides the keys (null: all). */
        public Copy select(List<String> select) {
            this.select = select;
            return this;
        }

        /** Only partitions at or above {@code lower} and below {@code upper} (null: no such bound). */
        public Copy partitions(String lower, String upper) {
            this.lowerPartition = lower;
            this.upperPartition = upper;
            return this;
        }

        /** A new spec naming its job, with a new scan id. */
        public ScanSpec build() {
            return Jobs.name(ScanSpec.newBuilder(), job, options)
                    .setScanId(newScanId())
                    .setSource(source)
                    .setDestination(destination)
                    .setSink(sink == null ? null : SinkRefs.toWire(sink))
                    .setStrategy(strategy)
                    .setPageSize(pageSize)
                    .setPageBudget(DEFAULT_PAGE_BUDGET)
                    .setRowFilter(filter)
                    .setSelect(select)
                    .setLowerPartition(lowerPartition)
                    .setUpperPartition(upperPartition)
                    .setCreatedAtMillis(System.currentTimeMillis())
                    .setLimits(limits)
                    .setSourceSecondary(sourceSecondary)
                    .build();
        }
    }
}
