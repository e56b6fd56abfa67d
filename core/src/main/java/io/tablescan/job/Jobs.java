package io.tablescan.job;

import io.tablescan.schema.JobRef;
import io.tablescan.schema.ScanSpec;
import java.util.Collection;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The jobs this version knows, by name: those listed in {@code META-INF/services/io.tablescan.job.Job} (one line a
 * job). {@link #of} is the one place that decides which job a spec runs.
 */
public final class Jobs {
    private static final Map<String, Job> BY_NAME = load();

    private Jobs() {}

    private static Map<String, Job> load() {
        Map<String, Job> jobs = new TreeMap<>();
        for (Job job : ServiceLoader.load(Job.class, Jobs.class.getClassLoader())) {
            Job other = jobs.putIfAbsent(job.name(), job);
            if (other != null) {
                throw new IllegalStateException("two jobs named " + job.name() + ": " + other.getClass().getName()
                        + " and " + job.getClass().getName());
            }
        }
        return Map.copyOf(jobs);
    }

    /** The jobs, by name. */
    public static Collection<Job> all() {
        return new TreeMap<>(BY_NAME).values();
    }

    /** The job of this name; an unknown name is refused (a spec of a later version's job, or a typo). */
    public static Job named(String name) {
        Job job = BY_NAME.get(name);
        if (job == null) {
            throw new IllegalArgumentException("no job named '" + name + "' in this version (jobs: "
                    + String.join(", ", new TreeMap<>(BY_NAME).keySet()) + ")");
        }
        return job;
    }

    /**
     * The job a spec runs. A flag of the versions before jobs had names (count, verify, mirror, changed-only) decides
     * when set, as it does on a worker of such a version, so every worker runs a spec alike; else the job the spec
     * names; else (a spec of such a version without a flag) a copy.
     */
    public static Job of(ScanSpec spec) {
        String legacy = spec.getCount() ? "count" : spec.getVerify() ? "verify" : spec.getMirror() ? "mirror"
                : spec.getChangedOnly() ? "changed-only" : null;
        if (legacy != null) {
            return named(legacy);
        }
        return named(spec.getJob() != null ? spec.getJob().getName() : "copy");
    }

    /** Makes {@code spec} name {@code job} with these options, with the flags a worker of an earlier version reads. */
    public static ScanSpec.Builder name(ScanSpec.Builder spec, Job job, Map<String, String> options) {
        spec.setJob(new JobRef(job.name(), Map.copyOf(options)));
        spec.setCount(false).setVerify(false).setMirror(false).setChangedOnly(false);
        job.legacyFlags(spec);
        return spec;
    }
}
