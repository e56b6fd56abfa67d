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

    /** A record left undone as the workers stop is out of hand, and no commit passes it: the next consumer does it. */
    @Test
    void aRecordLeftUndoneHoldsTheCommittedOffsetButIsNoLongerInHand() {
        PartitionProgress progress = new PartitionProgress(new OffsetAndMetadata(100));
        for (long offset = 100; offset < 103; offset++) {
            progress.fetched(offset);
        }
        progress.completed(100);
        progress.abandoned(101);
        progress.completed(102);

        assertThat(progress.inFlight()).as("in hand").isZero();
        OffsetAndMetadata commit = progress.toCommit();
        assertThat(commit.offset()).isEqualTo(101);
        assertThat(PartitionProgress.decode(commit.offset(), commit.metadata())).containsExactly(102L);
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

    @Test
    void aLinkBeyondWhatWasFetchedIsNamedInTheMetadataAndSkippedWhenFetched() {
        PartitionProgress progress = new PartitionProgress(new OffsetAndMetadata(100));
        progress.fetched(100);
        assertThat(progress.linked(100)).as("already fetched").isFalse();
        assertThat(progress.linked(103)).isTrue(); // 101, 102: written by others, not fetched yet
        progress.completed(100);
        assertThat(progress.toCommit().offset()).as("101 is owed, whoever wrote it").isEqualTo(101);
        progress.completed(103);
        OffsetAndMetadata commit = progress.toCommit();
        assertThat(commit.offset()).isEqualTo(101);
        assertThat(PartitionProgress.decode(commit.offset(), commit.metadata())).containsExactly(103L);
        progress.committed(commit);

        assertThat(progress.fetched(101)).isTrue();
        assertThat(progress.fetched(102)).isTrue();
        assertThat(progress.fetched(103)).as("done here before it was fetched").isFalse();
        assertThat(progress.rewound().fetched(103)).as("and after a rewind").isFalse();
    }

    @Test
    void aLinkInHandIsSkippedWhenFetchedAndOneBeyondTheWindowIsNotTaken() {
        PartitionProgress progress = new PartitionProgress(new OffsetAndMetadata(0));
        progress.fetched(0);
        assertThat(progress.linked(5)).isTrue();
        assertThat(progress.fetched(5)).as("in hand already").isFalse();
        assertThat(progress.toCommit().offset()).isZero();
        assertThat(progress.linked(PartitionProgress.WINDOW)).as("beyond what the metadata can name").isFalse();
        progress.unlinked(5);
        assertThat(progress.fetched(5)).as("nobody went on with it: processed when fetched").isTrue();
    }
}
