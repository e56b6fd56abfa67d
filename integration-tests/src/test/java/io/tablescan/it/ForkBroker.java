package io.tablescan.it;

import io.tablescan.cli.Cli;
import io.tablescan.runtime.KafkaSettings;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * The table jobs that a class's tests run through {@link Cli#run} run on the fork's one broker
 * ({@link LocalServices#broker()}) as {@code --kafka <it> --in-process}, under a namespace of the class's own, instead
 * of starting and stopping an embedded broker each (most of a short command's time and CPU). For classes whose
 * subject is a job's result; those whose subject is the local default itself (its broker, its state and resume, its
 * lines) stay on it, and so does a test marked {@link LocalDefault}.
 *
 * <p>One namespace a class is enough: each such command already works in a private namespace under it (a random
 * suffix), whose topics and groups it deletes when it ends, so no command meets an earlier one's items, records or
 * groups. What a command failed to delete is deleted after the class, so that a fork's broker does not accumulate
 * topics and partitions; the class's name in the namespace tells whose they were.
 */
final class ForkBroker implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    /** A test of an opted-in class that runs its commands on the local default (its broker, its lines). */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface LocalDefault {}

    @Override
    public void beforeAll(ExtensionContext context) {
        Cli.onKafka(where(context));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        boolean local = context.getRequiredTestMethod().isAnnotationPresent(LocalDefault.class);
        Cli.onKafka(local ? null : where(context));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Cli.onKafka(where(context));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Cli.onKafka(null); // the next class of the fork runs as it says
        removeLeftovers(namespace(context));
    }

    private static Cli.OnKafka where(ExtensionContext context) {
        return new Cli.OnKafka(LocalServices.broker().bootstrapServers(), namespace(context));
    }

    private static String namespace(ExtensionContext context) {
        return "it-" + context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT);
    }

    /** Topics and groups under {@code namespace} that a command left (it warned when it could not delete them). */
    private static void removeLeftovers(String namespace) {
        try (Admin admin = Admin.create(KafkaSettings.of(LocalServices.broker().bootstrapServers()).admin())) {
            List<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(namespace + ".") || t.startsWith(namespace + "-")).toList();
            List<String> groups = admin.listGroups().all().get(30, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).filter(g -> g.startsWith(namespace + "-")).toList();
            if (!topics.isEmpty() || !groups.isEmpty()) {
                LoggerFactory.getLogger(ForkBroker.class).warn("left on the fork's broker, now deleted: topics {}, groups {}",
                        topics, groups);
                admin.deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
                admin.deleteConsumerGroups(groups).all().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) { // the class's results stand; the next class's commands use namespaces of their own
            LoggerFactory.getLogger(ForkBroker.class).warn("could not remove what {} left: {}", namespace, e.toString());
        }
    }
}
