package io.tablescan.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One export's claim on its target for its whole run: {@value #NAME}, created only if absent (an exclusive create in
 * a folder, If-None-Match on Blob), naming the run, host, process and start. A second export onto the target is
 * refused while it is there. It goes when the export ends, however it ends (a shutdown hook for a second Ctrl-C or
 * SIGTERM), if it is still this run's ({@link BackupStore#deleteIfSame}); only a killed process (SIGKILL, a lost
 * machine) leaves it, and the refusal says how to clear it by hand.
 */
public final class ExportClaim implements AutoCloseable {
    public static final String NAME = "export-in-progress.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BackupStore store;
    private final String runId;
    private final byte[] marker;
    private final Thread onExit;

    private ExportClaim(BackupStore store, String runId, byte[] marker) {
        this.store = store;
        this.runId = runId;
        this.marker = marker;
        this.onExit = new Thread(this::release, "export-claim-release");
    }

    /**
     * Claims {@code store} for a new run; a {@link BackupException} of kind IN_USE when another export holds it or it
     * holds a finished export.
     */
    public static ExportClaim take(BackupStore store) {
        return take(store, HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()), false, Map.of());
    }

    /**
     * Claims {@code store} for a new run of an export on the cluster at {@code cluster} as scan {@code scanId}: the
     * claim names the scan, so that the same export run again follows it, and it stays when this process ends once
     * {@link #handOver} is called: the cluster's workers release it when the export ends.
     */
    public static ExportClaim takeForCluster(BackupStore store, String cluster, String scanId, String job) {
        return take(store, HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()), false,
                Map.of("cluster", cluster, "scanId", scanId, "job", job));
    }

    /**
     * The export on a cluster that holds {@code store}'s claim, if one does: its scan, and what defines the export
     * (a hash of its options, never a secret; null in a claim of an earlier version).
     */
    public record ClusterHolder(String scanId, String job) {}

    public static java.util.Optional<ClusterHolder> clusterHolder(BackupStore store) {
        try {
            JsonNode m = JSON.readTree(store.read(NAME));
            return m.hasNonNull("scanId") ? java.util.Optional.of(new ClusterHolder(m.path("scanId").asText(),
                    m.path("job").asText(null))) : java.util.Optional.empty();
        } catch (IOException | BackupException e) {
            return java.util.Optional.empty();
        }
    }

    /** From now on the claim outlives this process: the export's job holds it. */
    public void handOver() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting
        }
    }

    /** Releases the claim of run {@code runId} (an export on a cluster, as its workers end it); another run's stays. */
    public static void release(BackupStore store, String runId) {
        try {
            byte[] held = store.read(NAME);
            if (runId.equals(JSON.readTree(held).path("runId").asText())) {
                store.deleteIfSame(NAME, held);
            }
        } catch (IOException | BackupException e) {
            // gone already, or unreadable: not this run's to remove
        }
    }

    /**
     * Claims {@code store} for a rerun of run {@code runId} (a local job resumed): a claim that run left when it was
     * killed on this host is taken over; any other claim refuses as {@link #take} does.
     */
    public static ExportClaim resume(BackupStore store, String runId) {
        return take(store, runId, true, Map.of());
    }

    private static ExportClaim take(BackupStore store, String runId, boolean resume, Map<String, String> job) {
        store.prepare();
        refuseFinished(store); // before the claim, so that a finished export is named as such
        if (resume) {
            dropLeftClaim(store, runId);
        }
        ProcessHandle self = ProcessHandle.current();
        byte[] marker;
        try {
            Map<String, Object> fields = new java.util.LinkedHashMap<>(Map.of("runId", runId, "host", host(),
                    "pid", self.pid(), "started", Instant.now().toString()));
            fields.putAll(job);
            marker = JSON.writeValueAsBytes(fields);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (!store.create(NAME, marker)) {
            throw held(store);
        }
        ExportClaim claim = new ExportClaim(store, runId, marker);
        Runtime.getRuntime().addShutdownHook(claim.onExit);
        try {
            refuseFinished(store); // one that finished between the first check and the claim
        } catch (BackupException e) {
            claim.close();
            throw e;
        }
        return claim;
    }

    /** This run's id, part of each data file's name so that no other run's files can be taken for this one's. */
    public String runId() {
        return runId;
    }

    /** Gives the target up, if the claim is still this run's. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs release itself
        }
        release();
    }

    private void release() {
        try {
            store.deleteIfSame(NAME, marker); // a claim another export took meanwhile stays
        } catch (BackupException e) {
            if (e.kind() != BackupException.Kind.NOT_FOUND) {
                System.err.println("tablescan: warning: could not remove " + store.describe(NAME) + " (" + e.getMessage()
                        + "); delete it before the next export to " + store.describe());
            }
        }
    }

    /** Deletes the claim of run {@code runId} if a process of this host that is gone left it. */
    public static void dropLeftClaim(BackupStore store, String runId) {
        try {
            byte[] left = store.read(NAME);
            JsonNode m = JSON.readTree(left);
            long pid = m.path("pid").asLong(-1);
            boolean gone = pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            if (runId.equals(m.path("runId").asText()) && host().equals(m.path("host").asText()) && gone) {
                store.deleteIfSame(NAME, left);
            }
        } catch (IOException | BackupException e) {
            // none, or unreadable: the claim below decides
        }
    }

    private static void refuseFinished(BackupStore store) {
        if (store.exists(Manifest.NAME)) { // its files would be mixed with this run's under a manifest
            throw new BackupException(BackupException.Kind.IN_USE, store.describe() + " already holds a finished export ("
                    + Manifest.NAME + "): export to another folder, container or prefix");
        }
    }

    /** The refusal when another run's marker is there: who holds it, and how to clear a claim left by a killed run. */
    private static BackupException held(BackupStore store) {
        String who = "";
        boolean gone = false;
        try {
            JsonNode m = JSON.readTree(store.read(NAME));
            if (m.hasNonNull("scanId")) { // a job on a cluster, not a process, holds it
                return new BackupException(BackupException.Kind.IN_USE, store.describe() + " is being written by the "
                        + "export running as scan " + m.path("scanId").asText() + " on the cluster at "
                        + m.path("cluster").asText("?") + ": run the same export with that --kafka to follow it, or "
                        + "export to another folder, container or prefix (if `tablescan status` does not know that "
                        + "scan, the command that claimed the target was killed before it started it: delete "
                        + store.describe(NAME) + " and run the export again)");
            }
            long pid = m.path("pid").asLong(-1);
            String host = m.path("host").asText("?");
            who = " (pid " + pid + " on " + host + ", since " + m.path("started").asText("?") + ")";
            gone = host.equals(host()) && pid > 0 && ProcessHandle.of(pid).isEmpty();
        } catch (IOException | BackupException e) {
            // an unreadable or vanished marker: refuse all the same, without the details
        }
        return new BackupException(BackupException.Kind.IN_USE, store.describe() + " is being written by another export"
                + who + (gone ? ", a process that is no longer running" : "") + ": export to another folder, container or "
                + "prefix, or, if that export was killed, delete " + store.describe(NAME) + " and run this one again");
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "an unknown host";
        }
    }
}
