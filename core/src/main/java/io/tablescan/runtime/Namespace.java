package io.tablescan.runtime;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The prefix of every topic, consumer group and transactional id of one tablescan deployment, so that several
 * independent deployments share one Kafka cluster without taking each other's work items: a worker resolves a
 * scan's account aliases with its own credentials, so it must never see another deployment's scans. The
 * default, {@code tablescan}, gives the names tablescan always had.
 */
public record Namespace(String name) {
    public static final String VARIABLE = "TABLESCAN_NAMESPACE";
    /** Kafka's topic-name characters. */
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");
    /**
     * Longest namespace a user may give: a private copy's adds 14 characters, and the longest name built on
     * that (the ledger's changelog, {@code <namespace>-ledger-scans-changelog}) stays within Kafka's 249.
     */
    public static final int MAX_LENGTH = 200;
    private static final String PRIVATE_COPY = "-copy-";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Declared after the constants the constructor checks with. */
    public static final Namespace DEFAULT = new Namespace("tablescan");

    public Namespace {
        if (name == null || !LEGAL.matcher(name).matches() || name.length() > MAX_LENGTH + PRIVATE_COPY.length() + 8) {
            throw new IllegalArgumentException(VARIABLE + " must be 1 to " + MAX_LENGTH + " characters of a-z, A-Z, "
                    + "0-9, '.', '_' and '-'" + problem(name));
        }
    }

    /** What is wrong, without echoing the value (a pasted secret must not reach a terminal or log). */
    private static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return ", got nothing";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!LEGAL.matcher(String.valueOf(c)).matches()) {
                String shown = c > ' ' && c < 127 ? "'" + c + "'" : String.format("U+%04X", (int) c);
                return "; " + shown + " at position " + (i + 1) + " is not";
            }
        }
        return ", got " + name.length() + " characters";
    }

    /** A namespace a user gives (checked like {@code TABLESCAN_NAMESPACE}). */
    public static Namespace of(String name) {
        if (name != null && name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(VARIABLE + " must be 1 to " + MAX_LENGTH + " characters, got "
                    + name.length());
        }
        return new Namespace(name);
    }

    /** {@code TABLESCAN_NAMESPACE}, or the default when it is unset or blank. */
    public static Namespace fromEnvironment(Map<String, String> env) {
        String value = env.get(VARIABLE);
        return value == null || value.isBlank() ? DEFAULT : of(value.strip());
    }

    /**
     * A namespace of its own for one in-process copy (under this one, so prefix ACLs still cover it): its
     * workers then take only its own items, and no other deployment's workers see them.
     */
    public Namespace privateCopy() {
        byte[] random = new byte[4];
        RANDOM.nextBytes(random);
        return new Namespace(name + PRIVATE_COPY + HexFormat.of().formatHex(random));
    }

    /** A topic of this deployment: {@code <namespace>.<role>}, e.g. {@code tablescan.prefix-queries}. */
    public String topic(String role) {
        return name + "." + role;
    }

    /** A consumer group, Streams application or transactional id: {@code <namespace>-<role>}. */
    public String group(String role) {
        return name + "-" + role;
    }

    public String prefixQueries() {
        return topic("prefix-queries");
    }

    public String partitionQueries() {
        return topic("partition-queries");
    }

    public String entityBatches() {
        return topic("entity-batches");
    }

    public String scanEvents() {
        return topic("scan-events");
    }

    public String deadLetters() {
        return topic("dead-letters");
    }

    /** The ledger's output: the latest {@code ScanStatus} of every scan, keyed by scan id. */
    public String scans() {
        return topic("scans");
    }

    /** Operators' instructions ({@code ScanControl}, e.g. cancel), keyed by scan id; every worker follows it. */
    public String scanControl() {
        return topic("scan-control");
    }

    /** What verifies and mirrors found: {@code Difference} records, keyed by scan id. */
    public String differences() {
        return topic("differences");
    }

    /** Each process's demand on capped scans' rates (io.tablescan.rate): compacted, short-lived. */
    public String rateDemand() {
        return topic("rate-demand");
    }

    public List<String> topics() {
        return List.of(prefixQueries(), partitionQueries(), entityBatches(), scanEvents(), deadLetters(), scans(),
                scanControl(), differences(), rateDemand());
    }

    /**
     * Whether {@code topic} is this deployment's: one of its topics (today's roles and any later one), its ledger's
     * internal topics, or a private copy's. Rows written there would be read as work items or ledger records.
     */
    public boolean owns(String topic) {
        return topic.startsWith(name + ".") || topic.startsWith(ledger() + "-")
                || topic.startsWith(name + PRIVATE_COPY);
    }

    /** Topics that keep only the latest record per key. */
    public List<String> compacted() {
        return List.of(scans(), scanControl(), rateDemand());
    }

    /** The topic that carries work items of this kind. */
    public String topic(ItemKind kind) {
        return topic(kind.role);
    }

    /** The kind of item a topic of this namespace carries, or null for other topics. */
    public ItemKind kindOf(String topic) {
        for (ItemKind kind : ItemKind.values()) {
            if (topic(kind).equals(topic)) {
                return kind;
            }
        }
        return null;
    }

    /** The scan ledger's Kafka Streams application id (its group, and the prefix of its internal topics). */
    public String ledger() {
        return group("ledger");
    }

    /**
     * The ledger's store's changelog (its store is {@code ScanLedger.STORE}), made by Kafka Streams, or by tablescan
     * on a broker in this process.
     */
    public String ledgerChangelog() {
        return ledger() + "-scans-changelog";
    }

    @Override
    public String toString() {
        return name;
    }
}
