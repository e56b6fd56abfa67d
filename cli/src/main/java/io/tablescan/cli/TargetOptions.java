package io.tablescan.cli;

import io.tablescan.copy.TopicSink;
import io.tablescan.runtime.Namespace;
import io.tablescan.runtime.ReservedTopics;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkPlugins;
import io.tablescan.sink.SinkRefs;
import io.tablescan.sink.SinkRegistry;
import io.tablescan.spi.SinkRef;
import io.tablescan.table.RetryPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import picocli.CommandLine.Option;

/**
 * Where a scan's rows go, on every command that starts one: exactly one target, the destination table, a Kafka
 * topic, or a sink by type. A new kind of target is one more option here and one more entry in {@link #targetsGiven()}.
 */
final class TargetOptions {
    /** A sink type or option key: the plain shape of a name, so a message may repeat it. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    /** The copy-worker's built-in sink that --to-topic names. */
    static final String TOPIC = "topic";
    /** The topic sink's compression option and its values, as the sink itself checks them. */
    static final String COMPRESSION = TopicSink.COMPRESSION_OPTION;
    /** Set: an existing topic's compression.type is changed too (only when --topic-compression was given). */
    static final String COMPRESSION_OF_EXISTING = TopicSink.COMPRESSION_OF_EXISTING_OPTION;
    static final List<String> COMPRESSIONS = TopicSink.COMPRESSIONS;
    /** Readable by every Kafka client, KafkaJS included, with no extra codec. */
    static final String DEFAULT_COMPRESSION = "gzip";

    @Option(names = "--dest-table", paramLabel = "TABLE", description = "The table to copy into, created if missing; "
            + "not the source itself. Rows with the source's keys are replaced, its other rows kept. "
            + "This or --sink is required.")
    String destTable;

    @Option(names = "--to-topic", paramLabel = "NAME", description = "Or publish every row to this Kafka topic (created "
            + "if missing): one record per row, its keys as key and its JSON as value, exactly once for read_committed "
            + "consumers. copy needs --kafka with it.")
    String toTopic;

    @Option(names = "--topic-compression", paramLabel = "TYPE", description = "With --to-topic: the topic's "
            + "compression.type, none, gzip, snappy, lz4 or zstd (default: gzip, which every client reads; KafkaJS "
            + "needs a codec for the others).")
    String topicCompression;

    @Option(names = "--sink", paramLabel = "TYPE", description = "Or hand every row to the sink of this type instead "
            + "of a table: a built-in one, or one from a plugin jar in the TABLESCAN_PLUGINS folder.")
    String sinkType;

    @Option(names = "--sink-target", paramLabel = "NAME", description = "What the sink writes to, as its type reads "
            + "it (a table name for swap-keys) (default: empty).")
    String sinkTarget;

    @Option(names = "--sink-option", paramLabel = "KEY=VALUE", description = "An option of the sink, repeatable "
            + "(default: none). Options travel in the scan's spec and Kafka records: never a secret.")
    List<String> sinkOptions;

    /** The targets given, by option name: exactly one must be. */
    private List<String> targetsGiven() {
        List<String> given = new ArrayList<>();
        if (destTable != null) {
            given.add("--dest-table");
        }
        if (toTopic != null) {
            given.add("--to-topic");
        }
        if (sinkType != null) {
            given.add("--sink");
        }
        return given;
    }

    /** Checks the options: one clear line for the first mistake, before anything is read. */
    void validate() {
        List<String> given = targetsGiven();
        if (given.isEmpty()) {
            throw new UserError(UserError.USAGE, "give where the rows go: --dest-table TABLE, --to-topic NAME or --sink TYPE");
        }
        if (given.size() > 1) {
            throw new UserError(UserError.USAGE, "give one target, not " + String.join(" and ", given));
        }
        if (topicCompression != null && toTopic == null) {
            throw new UserError(UserError.USAGE, "--topic-compression needs --to-topic NAME");
        }
        if (topicCompression != null && !COMPRESSIONS.contains(topicCompression)) {
            throw new UserError(UserError.USAGE, "--topic-compression must be one of " + String.join(", ", COMPRESSIONS));
        }
        if (sinkType == null && (sinkTarget != null || sinkOptions != null)) {
            throw new UserError(UserError.USAGE, (sinkTarget != null ? "--sink-target" : "--sink-option")
                    + " needs --sink TYPE");
        }
        if (destTable != null) {
            Checks.tableName("--dest-table", destTable);
            return;
        }
        if (toTopic != null) {
            try {
                Topic.validate(toTopic);
            } catch (InvalidTopicException e) {
                throw new UserError(UserError.USAGE, "--to-topic must be a Kafka topic name: 1 to 249 letters, digits, "
                        + "'.', '_' and '-', not '.' or '..'");
            }
            String refusal = ReservedTopics.refusalOfNamed(toTopic); // any namespace's, not only the scan's
            if (refusal != null) {
                throw new UserError(UserError.USAGE, "--to-topic " + toTopic + " " + refusal);
            }
            return;
        }
        if (!NAME.matcher(sinkType).matches()) {
            throw new UserError(UserError.USAGE, "--sink must be a sink type: letters, digits, '.', '_' and '-'");
        }
        if (SinkRefs.TABLE.equals(sinkType)) { // --dest-table checks the table before the copy: one way to it
            throw new UserError(UserError.USAGE, "to copy into a table, give --dest-table TABLE, not --sink table");
        }
        if (TOPIC.equals(sinkType)) { // --to-topic checks the name and the cluster first
            throw new UserError(UserError.USAGE, "to publish to a topic, give --to-topic NAME, not --sink topic");
        }
        options();
    }

    boolean toTable() {
        return destTable != null;
    }

    /**
     * Checks --to-topic against the namespace the scan runs in: any topic of it (a role added later, a private copy's),
     * beyond the topics of every namespace that {@link #validate} refuses, would receive rows in place of work items.
     */
    void checkTopic(Namespace namespace) {
        for (Namespace own : List.of(namespace, Namespace.DEFAULT)) {
            if (toTopic != null && own.owns(toTopic)) {
                throw new UserError(UserError.USAGE, "--to-topic " + toTopic + " is a topic of tablescan's own (namespace "
                        + own + "): give a topic outside it");
            }
        }
    }

    /** The sink's options; a malformed one is named by its position, never by its value (it may be a key). */
    Map<String, String> options() {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> given = sinkOptions == null ? List.of() : sinkOptions;
        for (int i = 0; i < given.size(); i++) {
            String option = given.get(i);
            int equals = option.indexOf('=');
            String key = equals < 0 ? "" : option.substring(0, equals);
            if (!NAME.matcher(key).matches()) {
                throw new UserError(UserError.USAGE, "--sink-option number " + (i + 1) + " is not KEY=VALUE with a "
                        + "key of letters, digits, '.', '_' and '-'");
            }
            if (options.put(key, option.substring(equals + 1)) != null) {
                throw new UserError(UserError.USAGE, "--sink-option " + key + " is given twice");
            }
        }
        return options;
    }

    /**
     * Checks this machine's sinks: the class path's and those of the TABLESCAN_PLUGINS folder in {@code env} (a
     * folder, jar or provider that cannot work is one line), and, when {@code checkType}, that one makes --sink's
     * type.
     */
    void checkSinks(Map<String, String> env, boolean checkType) {
        Set<String> types;
        try {
            types = SinkRegistry.load(SinkPlugins.fromEnvironment(env), ref -> null, RetryPolicy.DEFAULT).types();
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        if (checkType && sinkType != null && !types.contains(sinkType)) {
            throw new UserError(UserError.USAGE, "unknown sink type '" + sinkType + "': this machine has sinks of type "
                    + String.join(", ", types) + " (plugin jars go in the folder " + SinkPlugins.VARIABLE + " names)");
        }
    }

    /** The scan's target on {@code account} (null: a sink that needs none). */
    ScanSpecs.Copy applyTo(ScanSpecs.Copy spec, String account) {
        if (toTopic != null) {
            // On the workers' own cluster. A topic that exists keeps its compression.type unless it was asked for.
            return spec.sink(new SinkRef(TOPIC, null, toTopic, topicCompression == null
                    ? Map.of(COMPRESSION, DEFAULT_COMPRESSION)
                    : Map.of(COMPRESSION, topicCompression, COMPRESSION_OF_EXISTING, "set")));
        }
        return toTable() ? spec.to(new TableRef(account, destTable))
                : spec.sink(new SinkRef(sinkType, account, sinkTarget == null ? "" : sinkTarget, options()));
    }
}
