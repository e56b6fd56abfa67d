package io.tablescan.runtime;

import io.tablescan.rate.Direction;
import io.tablescan.rate.ScanRates;
import io.tablescan.sink.SinkPlugins;
import io.tablescan.table.Accounts;
import io.tablescan.table.FaultInjectingTableStore;
import io.tablescan.table.RetryCounter;
import io.tablescan.table.RetryPolicy;
import io.tablescan.spi.TableStore;
import io.tablescan.table.TableStores;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A worker's configuration, from environment variables (the same names in docker-compose and the README):
 * {@code KAFKA_*} client settings, {@code TABLESCAN_ACCOUNT_<ALIAS>_CONNECTION_STRING} per account, and
 * {@code TABLESCAN_MAX_IN_FLIGHT}, {@code TABLESCAN_READ_IN_FLIGHT}, {@code TABLESCAN_MAX_ATTEMPTS}, {@code TABLESCAN_TOPIC_PARTITIONS},
 * {@code TABLESCAN_TOPIC_REPLICATION}, {@code TABLESCAN_PLUGINS}. Immutable: each {@code with} method returns a
 * copy (with stores of its own, opened as it asks).
 */
public final class WorkerSettings {
    public static final String MAX_IN_FLIGHT = "TABLESCAN_MAX_IN_FLIGHT";
    public static final String READ_IN_FLIGHT = "TABLESCAN_READ_IN_FLIGHT";
    public static final String MAX_ATTEMPTS = "TABLESCAN_MAX_ATTEMPTS";
    public static final String TOPIC_PARTITIONS = "TABLESCAN_TOPIC_PARTITIONS";
    public static final String TOPIC_REPLICATION = "TABLESCAN_TOPIC_REPLICATION";

    private final KafkaSettings kafka;
    private final Accounts accounts;
    private final int maxInFlight;
    private final int readInFlight;
    private final RetryPolicy retry;
    private final int topicPartitions;
    private final Optional<Short> topicReplication;
    private final FaultInjectingTableStore.Faults faults;
    private final SinkPlugins plugins;
    /** The shared store of each account alias, opened on its first use (a cache, not a setting). */
    private final Map<String, TableStore> stores = new ConcurrentHashMap<>();
    /** This process's shares of capped scans' rates, started on the first capped item (a cache too). */
    private ScanRates rates;
    /** Scans a throttle record named, capped or not: their items take shares too from then on (a cache too). */
    private final java.util.Set<String> throttled = ConcurrentHashMap.newKeySet();
    /** The scans a cancel record named, for the shares made after it was seen (see {@link #cancelSeen}). */
    private final java.util.Set<String> cancelledScans = ConcurrentHashMap.newKeySet();

    public WorkerSettings(KafkaSettings kafka, Accounts accounts, int maxInFlight, RetryPolicy retry,
            int topicPartitions, Optional<Short> topicReplication) {
        this(kafka, accounts, maxInFlight, maxInFlight, retry, topicPartitions, topicReplication,
                FaultInjectingTableStore.Faults.NONE, SinkPlugins.NONE);
    }

    private WorkerSettings(KafkaSettings kafka, Accounts accounts, int maxInFlight, int readInFlight,
            RetryPolicy retry, int topicPartitions, Optional<Short> topicReplication,
            FaultInjectingTableStore.Faults faults, SinkPlugins plugins) {
        this.kafka = kafka;
        this.accounts = accounts;
        this.maxInFlight = maxInFlight;
        this.readInFlight = readInFlight;
        this.retry = retry;
        this.topicPartitions = topicPartitions;
        this.topicReplication = topicReplication;
        this.faults = faults;
        this.plugins = plugins;
    }

    public KafkaSettings kafka() {
        return kafka;
    }

    /** How this worker retries transient failures: table requests, and sink writes. */
    public RetryPolicy retry() {
        return retry;
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    /**
     * Requests in flight for the reading workers (discovery, partition). A read moves a page of up to 1,000
     * rows, so a few saturate an account; against a throttled account more only lengthen its queue, and with
     * it every chain of pages (a big partition's). Defaults to {@link #maxInFlight()}.
     */
    public int readInFlight() {
        return readInFlight;
    }

    /** These settings with {@code readInFlight} reads in flight. */
    public WorkerSettings withReadInFlight(int readInFlight) {
        return new WorkerSettings(kafka, accounts, maxInFlight, readInFlight, retry, topicPartitions, topicReplication,
                faults, plugins);
    }

    public static WorkerSettings fromEnvironment(Map<String, String> env) {
        int attempts = positive(env, MAX_ATTEMPTS, 8);
        int inFlight = positive(env, MAX_IN_FLIGHT, 32);
        return new WorkerSettings(KafkaSettings.fromEnvironment(env), new Accounts(env::get),
                inFlight,
                new RetryPolicy(attempts, RetryPolicy.DEFAULT.firstDelay(), RetryPolicy.DEFAULT.maxDelay()),
                positive(env, TOPIC_PARTITIONS, Topics.DEFAULT_PARTITIONS),
                topicReplication(env))
                .withFaults(FaultInjectingTableStore.Faults.fromEnvironment(env))
                .withReadInFlight(positive(env, READ_IN_FLIGHT, inFlight))
                .withPlugins(SinkPlugins.fromEnvironment(env)); // a bad folder is one line at start
    }

    /** Where the copy-worker finds its sink providers: the class path's, and these plugins'. */
    public SinkPlugins plugins() {
        return plugins;
    }

    /** These settings with sink providers from {@code plugins}. */
    public WorkerSettings withPlugins(SinkPlugins plugins) {
        return new WorkerSettings(kafka, accounts, maxInFlight, readInFlight, retry, topicPartitions, topicReplication,
                faults, plugins);
    }

    /** These settings with table faults injected (a testing aid): every store they open fails some requests. */
    public WorkerSettings withFaults(FaultInjectingTableStore.Faults faults) {
        return new WorkerSettings(kafka, accounts, maxInFlight, readInFlight, retry, topicPartitions, topicReplication,
                faults, plugins);
    }

    /** Settings for a local run: an embedded broker and accounts bound in code. */
    public static WorkerSettings local(String bootstrapServers, Accounts accounts) {
        return local(bootstrapServers, accounts, 32);
    }

    /** A local run on these Kafka settings (a namespace of its own, say) with accounts bound in code. */
    public static WorkerSettings local(KafkaSettings kafka, Accounts accounts) {
        return new WorkerSettings(kafka, accounts, 32, RetryPolicy.DEFAULT, Topics.LOCAL_PARTITIONS, Optional.empty());
    }

    /** A local run with this many table requests in flight per worker (benchmarks of high-latency services). */
    public static WorkerSettings local(String bootstrapServers, Accounts accounts, int maxInFlight) {
        return new WorkerSettings(KafkaSettings.of(bootstrapServers), accounts, maxInFlight, RetryPolicy.DEFAULT,
                Topics.LOCAL_PARTITIONS, Optional.empty());
    }

    /** {@code TABLESCAN_TOPIC_REPLICATION}, or empty for the cluster's ({@link TopicReplication#of}). */
    public static Optional<Short> topicReplication(Map<String, String> env) {
        String replication = env.get(TOPIC_REPLICATION);
        if (replication == null || replication.isBlank()) {
            return Optional.empty();
        }
        int replicas = positive(env, TOPIC_REPLICATION, 1);
        if (replicas > Short.MAX_VALUE) { // Kafka's replication factor is a short: a larger one would wrap
            throw new IllegalArgumentException(TOPIC_REPLICATION + " must be at most " + Short.MAX_VALUE + ", got '"
                    + replication + "'");
        }
        return Optional.of((short) replicas);
    }

    /** A positive whole-number setting, or the fallback when unset; a clear error otherwise. */
    public static int positive(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a positive whole number, got '" + value + "'");
        }
    }

    /**
     * The account's table store as this worker shares it between items: metered, with any injected faults, and
     * without retries (a sink's writes are retried by the worker, each item's reads by {@link #store}).
     */
    public TableStore account(String alias) {
        return stores.computeIfAbsent(alias.toLowerCase(java.util.Locale.ROOT),
                key -> TableStores.shared(accounts.get(alias), key, faults));
    }

    /**
     * The store an item reads its scan's source from: the source account's ({@link #store}), or its read-access
     * secondary's when the scan reads from there (shared, metered and retried the same way).
     */
    public TableStore sourceStore(io.tablescan.schema.ScanSpec spec, RetryCounter counter) {
        String alias = spec.getSource().getAccount();
        if (!spec.getSourceSecondary()) {
            return store(alias, counter);
        }
        String key = alias.toLowerCase(java.util.Locale.ROOT) + "~secondary"; // no alias has a "~"
        TableStore shared = stores.computeIfAbsent(key, k -> TableStores.shared(accounts.secondary(alias), k, faults));
        return capped(TableStores.forItem(shared, retry, counter), counter);
    }

    /**
     * The account's store for one item: retrying transient failures by this worker's policy, counted for it; for an
     * item of a capped scan, its reads and writes take this process's share of the scan's caps.
     */
    public TableStore store(String alias, RetryCounter counter) {
        return capped(TableStores.forItem(account(alias), retry, counter), counter);
    }

    private TableStore capped(TableStore store, RetryCounter counter) {
        if (counter instanceof ItemContext item
                && (ScanRates.capped(item.spec()) || throttled.contains(item.spec().getScanId()))) {
            return TableStores.capped(store, item.spec(), rates(), item);
        }
        return store;
    }

    /**
     * Runs a sink's write of {@code rows} rows for {@code item} within this process's share of its scan's write cap,
     * if it has one: a sink writes through a store of its own, outside the item's capped store.
     */
    public <T> T withinWriteCap(ItemContext item, int rows, java.util.function.Supplier<T> write) {
        if (!ScanRates.capped(item.spec()) && !throttled.contains(item.spec().getScanId())) {
            return write.get();
        }
        return rates().lane(item.spec(), Direction.WRITE).run(rows, () -> {
            item.writing();
            return write.get();
        }, written -> rows);
    }

    /**
     * A throttle record named the scan (on scan-control, as this process's workers follow it): its items are
     * capped from now on, a scan started without a cap too.
     */
    public void throttleSeen(String scanId) {
        throttled.add(scanId);
    }

    /**
     * A cancel record named the scan (or withdrew its cancel): its items' reads still waiting for the scan's rate are
     * not sent, where the item has written nothing yet (it is then skipped, as the items that come after are).
     */
    public void cancelSeen(String scanId, boolean cancelled) {
        synchronized (stores) {
            if (cancelled) {
                cancelledScans.add(scanId);
            } else {
                cancelledScans.remove(scanId);
            }
            if (rates != null) {
                rates.cancelled(scanId, cancelled);
            }
        }
    }

    /**
     * The workers on these settings stop: their requests still waiting for a capped scan's rate are not sent (their
     * items are left for a replay).
     */
    public void stopRateWaits() {
        synchronized (stores) {
            if (rates != null) {
                rates.stopWaits();
            }
        }
    }

    /**
     * Ends this process's shares of capped scans' rates (its ticker, and its clients of the rate-demand topic), once
     * the workers on these settings are closed; a later capped item starts them again.
     */
    public void closeRates() {
        synchronized (stores) {
            if (rates != null) {
                rates.close();
                rates = null;
            }
        }
    }

    /** This process's shares of capped scans' rates, started on the first capped item. */
    private ScanRates rates() {
        synchronized (stores) {
            if (rates == null) {
                rates = new ScanRates(new RateDemandBoard(kafka), 1000);
                cancelledScans.forEach(scanId -> rates.cancelled(scanId, true));
            }
            return rates;
        }
    }

    /** Creates the pipeline's topics if missing (on a broker in this process: see {@link Topics#ensureLocal}). */
    public void ensureTopics(org.apache.kafka.clients.admin.Admin admin) {
        if (local()) {
            Topics.ensureLocal(admin, kafka.namespace(), Duration.ofSeconds(60));
            return;
        }
        Topics.ensure(admin, kafka.namespace(), topicPartitions, topicReplication, Duration.ofSeconds(60));
    }

    /**
     * As {@link #ensureTopics}, but on a broker in this process it returns once the topics exist: the caller starts
     * its consumers while the broker makes their partitions, and calls {@link #awaitTopics} before anything produces.
     */
    public void createTopics(org.apache.kafka.clients.admin.Admin admin) {
        if (local()) {
            Topics.createLocal(admin, kafka.namespace(), Duration.ofSeconds(60));
            return;
        }
        ensureTopics(admin);
    }

    /** Waits until every partition of the pipeline's topics answers (see {@link Topics#awaitAnswering}). */
    public void awaitTopics(org.apache.kafka.clients.admin.Admin admin) {
        Topics.awaitAnswering(admin, local() ? Topics.local(kafka.namespace()) : kafka.namespace().topics(),
                Duration.ofSeconds(60));
    }

    private boolean local() {
        return kafka.inProcess() && topicPartitions == Topics.LOCAL_PARTITIONS && topicReplication.isEmpty();
    }
}
