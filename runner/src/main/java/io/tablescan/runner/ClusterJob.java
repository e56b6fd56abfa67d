package io.tablescan.runner;

import io.tablescan.control.ScanCanceller;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.WorkerRuntime;
import io.tablescan.schema.ScanSpec;
import io.tablescan.status.ScanStatusReader;
import io.tablescan.status.ScanTotals;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.GroupState;

/**
 * A job on a cluster's own workers, with this command as its client only: the job is started in the cluster's
 * shared namespace (or, when the same job already runs there, attached to), then followed until it ends. The job
 * lives on the workers: killing the command leaves it running; a stop asked for (Ctrl-C) cancels it.
 */
public final class ClusterJob {
    /** The worker kinds a cluster needs to run a scan, with the ledger that records it. */
    static final List<String> WORKERS = List.of("discovery", "partition", "copy");
    private static final Duration ASK_WITHIN = Duration.ofSeconds(30);
    /** How long a cancelled job's work in hand may take to be written and counted, as a local job's Ctrl-C waits. */
    static final Duration DRAIN_WITHIN = Duration.ofSeconds(30);
    /** Group states of a group with no live member. */
    private static final Set<GroupState> GONE = Set.of(GroupState.EMPTY, GroupState.DEAD, GroupState.UNKNOWN);

    private ClusterJob() {}

    /** The outcome, and whether the command attached to a job that was already running. */
    public record Followed(CopyRun.Outcome outcome, boolean attached) {}

    /**
     * Whether the cluster's namespace has live members in the consumer groups of every worker kind and of the
     * ledger: then a job started there runs without this process. A worker killed a moment ago may still count
     * until its session times out; its group's other members or a restarted one take over its items.
     */
    public static boolean hasWorkers(KafkaSettings cluster) {
        Namespace namespace = cluster.namespace();
        Set<String> needed = WORKERS.stream().map(w -> WorkerRuntime.groupId(namespace, w)).collect(Collectors.toSet());
        needed.add(namespace.ledger());
        try (Admin admin = cluster.newAdmin()) {
            Map<String, GroupState> states = admin.listGroups().all().get(ASK_WITHIN.toSeconds(), TimeUnit.SECONDS)
                    .stream().filter(g -> needed.contains(g.groupId()))
                    .collect(Collectors.toMap(GroupListing::groupId, g -> g.groupState().orElse(GroupState.UNKNOWN)));
            return needed.stream().allMatch(g -> states.containsKey(g) && !GONE.contains(states.get(g)));
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * What defines a job, never a secret: a hash of its spec without its scan id and creation time (the job type
     * and its options, the account aliases and tables, the target, the selection, the page size, the caps).
     */
    public static String identity(ScanSpec spec) {
        ScanSpec definition = ScanSpec.newBuilder(spec).setScanId("").setCreatedAtMillis(0).build();
        // Maps in one order, whichever order a builder or a decoder gave them
        if (definition.getLimits() != null) {
            definition.setLimits(new TreeMap<>(definition.getLimits()));
        }
        if (definition.getSink() != null) {
            definition.getSink().setOptions(new TreeMap<>(definition.getSink().getOptions()));
        }
        if (definition.getJob() != null) {
            definition.getJob().setOptions(new TreeMap<>(definition.getJob().getOptions()));
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(definition.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The running scan of the same job as {@code spec} that the ledger knows of, the latest started first. */
    public static Optional<ScanTotals> running(ScanStatusReader reader, ScanSpec spec) {
        String job = identity(spec);
        try {
            return reader.all().stream().filter(t -> t.started() && !t.ended() && t.spec() != null)
                    .filter(t -> identity(t.spec()).equals(job)).findFirst();
        } catch (ScanStatusReader.NoLedgerTopicException e) {
            return Optional.empty(); // no scan has ever run there
        }
    }

    /**
     * Attaches to the same job when it runs, else seeds {@code spec} with the options' seeder; follows the job with
     * the options' view until it ends, the options' timeout passes, or the options' stop asks to stop: then the
     * job is cancelled on the cluster (the workers skip its remaining items). The options' {@code ended} reads
     * the cluster once the job has ended.
     */
    public static Followed run(KafkaSettings cluster, ScanSpec spec, RunOptions options) {
        BooleanSupplier stop = options.stop();
        try (ScanStatusReader reader = new ScanStatusReader(cluster)) {
            long start = System.nanoTime();
            Optional<ScanTotals> found = running(reader, spec);
            ScanSpec job = found.map(ScanTotals::spec).orElse(spec);
            if (found.isEmpty()) { // this very scan started before (found running a moment ago, ended since)
                found = startedBefore(reader, spec.getScanId());
            }
            if (found.isPresent()) { // followed (to its result, if it ended), never seeded again
                options.view().attached(found.get());
            } else {
                if (stop.getAsBoolean()) {
                    return new Followed(new CopyRun.Outcome(new ScanTotals(spec.getScanId(), null), 0, true), false);
                }
                options.seeder().seed(cluster, spec);
            }
            options.view().header(job);
            ScanTotals totals = reader.await(job.getScanId(), t -> t.ended() || stop.getAsBoolean(),
                    options.timeout(), options.progressInterval(), options.progress());
            boolean interrupted = !totals.ended() && stop.getAsBoolean();
            if (interrupted) {
                options.view().stopping();
                cancel(cluster, job.getScanId());
                // The workers finish the items they hold (a batch being written) before they skip the rest: the
                // counts said on stopping are those once the ledger has counted them, not those of the moment.
                totals = reader.await(job.getScanId(), t -> t.ended() && t.openItems() == 0, DRAIN_WITHIN,
                        options.progressInterval(), null);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (options.ended() != null && totals.ended() && !interrupted) {
                options.ended().read(cluster, totals);
            }
            return new Followed(new CopyRun.Outcome(totals, seconds, interrupted), found.isPresent());
        }
    }

    private static Optional<ScanTotals> startedBefore(ScanStatusReader reader, String scanId) {
        try {
            return Optional.of(reader.latest(scanId)).filter(ScanTotals::started);
        } catch (ScanStatusReader.NoLedgerTopicException e) {
            return Optional.empty();
        }
    }

    private static void cancel(KafkaSettings cluster, String scanId) {
        try {
            ScanCanceller.cancel(cluster, scanId);
        } catch (RuntimeException e) { // the command still stops; say what is left to do by hand
            System.err.println("tablescan: could not cancel scan " + scanId + " (" + e.getClass().getSimpleName()
                    + "): run `tablescan cancel " + scanId + " --kafka " + cluster.bootstrapServers() + "`");
        }
    }
}
