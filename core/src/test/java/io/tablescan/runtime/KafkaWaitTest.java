package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The wait for a starting Kafka: its limit from the environment; a list where no host resolves, or a cluster that
 * refuses the client, is not waited for; one host that does not resolve among others is; attempts are paced.
 */
@Execution(ExecutionMode.CONCURRENT) // its time is waiting in real time; runs beside the other classes
class KafkaWaitTest {
    @Test
    void theLimitIsADurationWith60sByDefault() {
        assertThat(KafkaWait.limit(Map.of())).isEqualTo(Duration.ofSeconds(60));
        assertThat(KafkaWait.limit(Map.of(KafkaWait.VARIABLE, "5m"))).isEqualTo(Duration.ofMinutes(5));
        assertThat(KafkaWait.limit(Map.of(KafkaWait.VARIABLE, "0s"))).isZero();
        assertThatThrownBy(() -> KafkaWait.limit(Map.of(KafkaWait.VARIABLE, "soon")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TABLESCAN_KAFKA_WAIT must be a duration such as 60s, 5m or 0s");
    }

    @Test
    void aHostThatDoesNotResolveFailsAtOnceWithoutSayingItWaits() {
        List<String> said = new ArrayList<>();
        long start = System.nanoTime();
        assertThatThrownBy(() -> KafkaWait.await(KafkaSettings.of("kafka.invalid:9092"), Duration.ofMinutes(5), said::add))
                .isInstanceOf(KafkaWait.Unreachable.class)
                .hasMessage("cannot reach Kafka at kafka.invalid:9092: host kafka.invalid does not resolve");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
        assertThat(said).isEmpty();
    }

    @Test
    void aListWhereNoHostResolvesFailsAtOnce() {
        List<String> said = new ArrayList<>();
        assertThatThrownBy(() -> KafkaWait.await(KafkaSettings.of("kafka.invalid:9092,other.invalid:9093"),
                        Duration.ofMinutes(5), said::add))
                .isInstanceOf(KafkaWait.Unreachable.class)
                .hasMessage("cannot reach Kafka at kafka.invalid:9092,other.invalid:9093: no host resolves");
        assertThat(said).isEmpty();
    }

    @Test
    void oneHostThatDoesNotResolveAmongOthersIsWaitedFor() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        String servers = "kafka.invalid:9092,127.0.0.1:" + closed;
        List<String> said = new ArrayList<>();
        assertThatThrownBy(() -> KafkaWait.await(KafkaSettings.of(servers), Duration.ofSeconds(2), said::add))
                .isInstanceOf(KafkaWait.Unreachable.class)
                .hasMessage("cannot reach Kafka at " + servers + " (waited 2 s; TABLESCAN_KAFKA_WAIT sets how long)");
        assertThat(said).containsExactly("waiting up to 2 s for Kafka at " + servers + " to answer (TABLESCAN_KAFKA_WAIT)");
    }

    @Test
    void aClusterThatRefusesTheClientFailsAtOnceWithTheCause() {
        for (Exception refusal : List.of(
                new SaslAuthenticationException("Authentication failed: Invalid username or password"),
                new SslAuthenticationException("SSL handshake failed"),
                new UnsupportedVersionException("The broker does not support DESCRIBE_CLUSTER"))) {
            AtomicInteger attempts = new AtomicInteger();
            KafkaSettings kafka = KafkaSettings.of("127.0.0.1:9092").withClients(answering(() -> {
                attempts.incrementAndGet();
                return failed(refusal);
            }));
            List<String> said = new ArrayList<>();
            assertThatThrownBy(() -> KafkaWait.await(kafka, Duration.ofSeconds(20), said::add))
                    .isInstanceOf(KafkaWait.Unreachable.class)
                    .hasMessage("cannot use Kafka at 127.0.0.1:9092: " + refusal.getMessage());
            assertThat(attempts).hasValue(1);
            assertThat(said).isEmpty();
        }
    }

    @Test
    void attemptsThatEndAtOnceArePaced() {
        AtomicInteger attempts = new AtomicInteger();
        KafkaSettings kafka = KafkaSettings.of("127.0.0.1:9092").withClients(answering(() -> {
            attempts.incrementAndGet();
            return KafkaFuture.completedFuture(List.of());
        }));
        long start = System.nanoTime();
        assertThatThrownBy(() -> KafkaWait.await(kafka, Duration.ofSeconds(2), line -> {}))
                .isInstanceOf(KafkaWait.Unreachable.class);
        long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        // One attempt per pause at most, and one more at the limit.
        assertThat(attempts.get()).isBetween(2, (int) (tookMs / KafkaWait.PAUSE.toMillis()) + 1);
    }

    /**
     * A broker that is up (it accepts connections) but answers nothing for its first 4 s, on a loaded machine: a
     * request whose timeout ends before then fails with a timeout, as Kafka's admin client's does.
     */
    @Test
    void aClusterThatIsUpButSlowToAnswerIsNotSaidToBeWaitedFor() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String servers = "127.0.0.1:" + socket.getLocalPort();
            long answersFrom = System.nanoTime() + Duration.ofSeconds(4).toNanos();
            KafkaSettings kafka = KafkaSettings.of(servers).withClients(answeringWithin(answersFrom,
                    new Node(1, "127.0.0.1", socket.getLocalPort())));
            List<String> said = new ArrayList<>();

            KafkaWait.await(kafka, Duration.ofSeconds(60), said::add);

            assertThat(said).isEmpty();
        }
    }

    /** Clients whose admin answers describeCluster from {@code answersFrom} on, and times out before then. */
    private static KafkaClients answeringWithin(long answersFrom, Node node) {
        KafkaClients base = answering(() -> KafkaFuture.completedFuture(List.of(node)));
        return new KafkaClients() {
            @Override
            public Consumer<byte[], byte[]> consumer(Properties config) {
                return base.consumer(config);
            }

            @Override
            public Producer<byte[], byte[]> producer(Properties config) {
                return base.producer(config);
            }

            @Override
            public Admin admin(Properties config) {
                return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                        (proxy, method, args) -> switch (method.getName()) {
                            case "describeCluster" -> {
                                int timeoutMs = ((DescribeClusterOptions) args[0]).timeoutMs();
                                KafkaFutureImpl<Collection<Node>> nodes = new KafkaFutureImpl<>();
                                long until = Math.min(answersFrom, System.nanoTime() + timeoutMs * 1_000_000L);
                                Thread.ofVirtual().start(() -> {
                                    // the broker's own time to answer (or the request's timeout), simulated
                                    java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
                                    if (System.nanoTime() - answersFrom >= 0) {
                                        nodes.complete(List.of(node));
                                    } else {
                                        nodes.completeExceptionally(new org.apache.kafka.common.errors.TimeoutException(
                                                "Timed out waiting for a node assignment"));
                                    }
                                });
                                yield describeClusterResult(nodes);
                            }
                            case "close" -> null;
                            default -> throw new UnsupportedOperationException(method.getName());
                        });
            }
        };
    }

    private static KafkaFuture<Collection<Node>> failed(Exception e) {
        KafkaFutureImpl<Collection<Node>> future = new KafkaFutureImpl<>();
        future.completeExceptionally(e);
        return future;
    }

    /** Clients whose admin answers each describeCluster with {@code nodes}; closing it does nothing. */
    private static KafkaClients answering(Supplier<KafkaFuture<Collection<Node>>> nodes) {
        return new KafkaClients() {
            @Override
            public Consumer<byte[], byte[]> consumer(Properties config) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Producer<byte[], byte[]> producer(Properties config) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Admin admin(Properties config) {
                return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                        (proxy, method, args) -> switch (method.getName()) {
                            case "describeCluster" -> describeClusterResult(nodes.get());
                            case "close" -> null;
                            default -> throw new UnsupportedOperationException(method.getName());
                        });
            }
        };
    }

    /** Kafka makes its results package-private; the test builds one by reflection. */
    private static DescribeClusterResult describeClusterResult(KafkaFuture<Collection<Node>> nodes) throws Exception {
        Constructor<DescribeClusterResult> c = DescribeClusterResult.class.getDeclaredConstructor(
                KafkaFuture.class, KafkaFuture.class, KafkaFuture.class, KafkaFuture.class);
        c.setAccessible(true);
        return c.newInstance(nodes, KafkaFuture.completedFuture(null), KafkaFuture.completedFuture("cluster"),
                KafkaFuture.completedFuture(null));
    }
}
