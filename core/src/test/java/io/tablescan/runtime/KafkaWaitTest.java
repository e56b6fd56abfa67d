package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The wait for a starting Kafka: its limit from the environment; a host that does not resolve is not waited for. */
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
}
