package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;

/** Out-of-order completion: the committed offset waits for the oldest record, the metadata names the rest. */
class PartitionProgressTest {
    @Test
    void theCommittedOffsetIsTheOldestUnfinishedRecordAndTheMetadataNamesTheDoneOnesAboveIt() {
        PartitionProgress progress = new PartitionProgress(new OffsetAndMetadata(100));
        for (long offset = 100; offset < 105; offset++) {
            assertThat(progress.fetched(offset)).isTrue();
        }
        progress.completed(101);
        progress.completed(104);
        OffsetAndMetadata commit = progress.toCommit();
        assertThat(commit.offset()).isEqualTo(100);
        assertThat(PartitionProgress.decode(commit.offset(), commit.metadata())).containsExactly(101L, 104L);
        progress.committed(commit);

        progress.completed(100);
        progress.completed(102);
        OffsetAndMetadata next = progress.toCommit();
        assertThat(next.offset()).as("100, 101 and 102 are done; 103 is not").isEqualTo(103);
        assertThat(PartitionProgress.decode(next.offset(), next.metadata())).containsExactly(104L);
    }

    @Test
    void afterARewindDoneRecordsAreSkippedAndGapsInTheLogDoNotHoldTheOffsetBack() {
        PartitionProgress progress = new PartitionProgress(null);
        progress.fetched(7);
        progress.fetched(9); // 8 is a transaction marker: never delivered
        progress.completed(9);
        progress.committed(progress.toCommit());
        PartitionProgress rewound = progress.rewound();
        assertThat(rewound.committedOffset()).isEqualTo(7);
        assertThat(rewound.fetched(7)).isTrue();
        assertThat(rewound.fetched(9)).as("done and committed").isFalse();
        rewound.completed(7);
        assertThat(rewound.toCommit().offset()).isEqualTo(10);
        assertThat(rewound.toCommit().metadata()).isEmpty();
    }

    @Test
    void aPartitionTooFarAheadOfItsOldestRecordStopsFetching() {
        PartitionProgress progress = new PartitionProgress(new OffsetAndMetadata(0));
        progress.fetched(0);
        for (long offset = 1; offset < PartitionProgress.WINDOW / 2; offset++) {
            progress.fetched(offset);
            progress.completed(offset);
        }
        assertThat(progress.full()).isTrue();
        assertThat(progress.fits(PartitionProgress.WINDOW - 1)).isTrue();
        assertThat(progress.fits(PartitionProgress.WINDOW)).isFalse();
        OffsetAndMetadata commit = progress.toCommit();
        assertThat(commit.metadata().length()).as("within the broker's offset.metadata.max.bytes").isLessThan(4096);
        assertThat(PartitionProgress.decode(0, commit.metadata())).hasSize(PartitionProgress.WINDOW / 2 - 1);
    }

    @Test
    void metadataWrittenBySomethingElseNamesNothing() {
        assertThat(PartitionProgress.decode(5, "committed by a script")).isEmpty();
        assertThat(PartitionProgress.decode(5, "done1:!!!")).isEmpty();
        assertThat(PartitionProgress.decode(5, null)).isEmpty();
    }
}
