package io.tablescan.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A transaction open on a partition is stuck only when its coordinator has ended it (or does not know it). */
class StuckTransactionsTest {
    private static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 0);
    private static final TopicPartition SCANS = new TopicPartition("tablescan.scans", 0);

    @Test
    void onlyTransactionsTheirCoordinatorEndedAreStuck() {
        Map<Long, TransactionState> states = Map.of(
                0L, TransactionState.COMPLETE_COMMIT, // the killed run's commit, its marker missing here
                1L, TransactionState.ONGOING, // a live producer's transaction
                2L, TransactionState.PREPARE_ABORT, // being aborted: its markers are on their way
                3L, TransactionState.COMPLETE_ABORT);
        var stuck = StuckTransactions.stuck(Map.of(
                OFFSETS, List.of(open(0, 170), open(1, 280)),
                SCANS, List.of(open(2, 30), open(3, 31), open(9, 32))), states::get);

        assertThat(stuck).containsExactlyInAnyOrder(
                new StuckTransactions.Stuck(OFFSETS, 0, 170),
                new StuckTransactions.Stuck(SCANS, 3, 31),
                new StuckTransactions.Stuck(SCANS, 9, 32)); // a producer its coordinator does not know
    }

    private static ProducerState open(long producerId, long from) {
        return new ProducerState(producerId, 0, 1, 0L, OptionalInt.of(0), OptionalLong.of(from));
    }
}
