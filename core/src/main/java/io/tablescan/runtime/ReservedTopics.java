package io.tablescan.runtime;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Topics no rows may be published to, whatever namespace the scan runs in: Kafka's internal topics (a producer is
 * refused there, and the items would be replayed or parked), and the topics of every tablescan namespace on the
 * cluster, not only the scan's own: rows there would be read as another deployment's work items or ledger records.
 */
public final class ReservedTopics {
    /** The role of each topic of a namespace, its name after {@code <namespace>.}. */
    private static final List<String> ROLES = Namespace.DEFAULT.topics().stream()
            .map(topic -> topic.substring(Namespace.DEFAULT.name().length() + 1)).toList();
    /** A ledger's Kafka Streams topics: {@code <namespace>-ledger-<store>-changelog}, or a repartition topic. */
    private static final Pattern LEDGER = Pattern.compile("(.+)-ledger-.+-(changelog|repartition)");
    /** A job's topic of rows to files or to compare: {@code <namespace>.export-<scan id>}, import-, verify-. */
    private static final Pattern JOBS = Pattern.compile("(.+)\\.(export|import|verify)-scan-.+");

    private ReservedTopics() {}

    /**
     * Why no sink may publish rows to {@code topic}, as the end of a sentence naming it ("is one of Kafka's internal
     * topics"), or null. A namespace's export, import and verify topics are not among them: those jobs publish there.
     */
    public static String refusal(String topic) {
        if (topic.startsWith("__")) {
            return "is one of Kafka's internal topics: give a topic of your own";
        }
        int dot = topic.lastIndexOf('.');
        if (dot > 0 && ROLES.contains(topic.substring(dot + 1))) {
            return ofNamespace(topic.substring(0, dot));
        }
        Matcher ledger = LEDGER.matcher(topic);
        return ledger.matches() ? ofNamespace(ledger.group(1)) : null;
    }

    /** As {@link #refusal}, for a topic a user names: a job's export, import or verify topic is refused too. */
    public static String refusalOfNamed(String topic) {
        String refusal = refusal(topic);
        if (refusal != null) {
            return refusal;
        }
        Matcher job = JOBS.matcher(topic);
        return job.matches() ? ofNamespace(job.group(1)) : null;
    }

    /** Said of a name a namespace's topic has, whether that namespace runs or not: rows there would be read as work. */
    private static String ofNamespace(String namespace) {
        return "is a name of tablescan's own topics (namespace " + namespace + "): give a topic outside it";
    }
}
