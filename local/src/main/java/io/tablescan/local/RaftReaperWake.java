package io.tablescan.local;

import java.lang.reflect.Field;
import kafka.raft.KafkaRaftManager;
import kafka.server.KafkaRaftServer;
import kafka.server.SharedServer;
import org.apache.kafka.raft.ExpirationService;

/**
 * Keeps a broker's stop from waiting on its raft timer's reaper. {@code KafkaRaftManager} stops the reaper of its
 * {@code TimingWheelExpirationService} without waking it (the purgatories' reapers are woken), and the reaper polls
 * its timer 200 ms at a time: every stop of a node waited up to 200 ms, 0.1 s on average, for that poll. Timers
 * that expire every 10 ms while the node stops end each poll within 10 to 20 ms (the timer's coarser wheels hand
 * their tasks on in 20 ms steps). The service is a private field of Kafka's: if a Kafka version moves it, the stop
 * waits for the poll as before.
 */
final class RaftReaperWake {
    private static final long EVERY_MS = 10;
    private static final long FOR_MS = 5_000;

    private RaftReaperWake() {}

    /** Schedules the timers; true when the service was found (a test tells a Kafka upgrade that moved it). */
    static boolean during(KafkaRaftServer server) {
        try {
            SharedServer shared = (SharedServer) field(KafkaRaftServer.class, "sharedServer").get(server);
            KafkaRaftManager<?> raft = shared.raftManager();
            if (raft == null) {
                return false; // never started, or stopped already
            }
            var service = (ExpirationService) field(KafkaRaftManager.class, "expirationService").get(raft);
            for (long ms = EVERY_MS; ms <= FOR_MS; ms += EVERY_MS) {
                service.failAfter(ms); // a future nobody waits for: its expiry only wakes the reaper
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) { // another Kafka's classes
            return false;
        }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
