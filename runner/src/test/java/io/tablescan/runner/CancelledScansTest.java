package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.control.ScanCanceller;
import io.tablescan.local.EmbeddedKafkaBroker;
import io.tablescan.runtime.CancelledScans;
import io.tablescan.runtime.KafkaSettings;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * A worker's follower of the scan-control topic asks the broker for records at most every 5 s while the topic is
 * still, yet sees a cancel as soon as its transaction commits: the commit ends the fetch waiting on the broker.
 */
class CancelledScansTest {
    @Test
    void aCancelIsSeenAtOnceThoughTheFollowersFetchWaitsFiveSeconds() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            KafkaSettings kafka = KafkaSettings.inProcess(broker.bootstrapServers());
            try (Admin admin = kafka.newAdmin()) {
                admin.createTopics(List.of(new NewTopic(kafka.namespace().scanControl(), 1, (short) 1),
                        new NewTopic(kafka.namespace().scanEvents(), 1, (short) 1))).all().get();
            }
            try (CancelledScans cancelled = CancelledScans.follow(kafka)) {
                Thread.sleep(1500); // a fetch of the empty topic parks on the broker meanwhile (not a wait for it)
                ScanCanceller.cancel(kafka, "scan-1");
                long committed = System.nanoTime();
                while (!cancelled.contains("scan-1") && System.nanoTime() - committed < 10_000_000_000L) {
                    Thread.onSpinWait();
                }
                long seenMillis = (System.nanoTime() - committed) / 1_000_000;
                assertThat(cancelled.contains("scan-1")).isTrue();
                assertThat(seenMillis).as("ms from the cancel's commit until the follower saw it").isLessThan(2500);
            }
        }
    }
}
