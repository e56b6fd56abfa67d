package io.tablescan.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.BitSet;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The offsets of one assigned input partition while its records complete out of order. The group's committed
 * offset is the lowest record not yet done; its metadata lists the records above it that are done (their
 * outputs committed in the same transaction), so that after a rewind or a rebalance they are skipped rather
 * than emitted twice. This is how one slow record no longer holds up every other record of its poll.
 */
final class PartitionProgress {
    /** Offsets above the committed one that the metadata can name: 2 KiB of bits, under the broker's 4 KiB limit. */
    static final int WINDOW = 16_384;
    private static final String FORMAT = "done1:";

    private long committed;
    /** Done, with outputs committed, above {@link #committed}: skipped when fetched again. */
    private final NavigableSet<Long> committedDone = new TreeSet<>();
    private final NavigableSet<Long> inFlight = new TreeSet<>();
    /**
     * Records left undone as the workers stop (see {@link #abandoned}): no longer in hand, and no commit passes them,
     * so that whoever consumes the partition next processes them.
     */
    private final NavigableSet<Long> abandoned = new TreeSet<>();
    /** Done, waiting for the next commit. */
    private final NavigableSet<Long> completed = new TreeSet<>();
    private long fetchedEnd;

    /** From the group's committed offset, or null when the partition has none yet. */
    PartitionProgress(OffsetAndMetadata start) {
        committed = start == null ? -1 : start.offset();
        fetchedEnd = committed;
        if (start != null) {
            committedDone.addAll(decode(start.offset(), start.metadata()));
        }
    }

    /** A fresh progress from this one's committed state: what a rewind to the last commit leaves. */
    PartitionProgress rewound() {
        PartitionProgress fresh = new PartitionProgress(null);
        fresh.committed = committed;
        fresh.fetchedEnd = committed;
        fresh.committedDone.addAll(committedDone);
        return fresh;
    }

    long committedOffset() {
        return committed;
    }

    /** Whether a record may be taken now: false when it lies beyond what the metadata can describe. */
    boolean fits(long offset) {
        return committed < 0 || offset - nextOffset() < WINDOW;
    }

    /** Records a fetched record; false when it was done by an earlier, committed transaction. */
    boolean fetched(long offset) {
        if (committed < 0) {
            committed = offset; // no committed offset yet: the log starts here for this group
        }
        fetchedEnd = Math.max(fetchedEnd, offset + 1);
        abandoned.remove(offset); // fetched again: in hand once more
        if (offset < committed || committedDone.contains(offset) || inFlight.contains(offset)
                || completed.contains(offset)) {
            return false; // done, or a chain's link this worker took in hand before fetching it
        }
        inFlight.add(offset);
        return true;
    }

    /**
     * Takes in hand a record this worker produced to this partition and processes without fetching it (a
     * chain's next link, see {@link LocalChains}); false when it cannot be taken (left to be fetched).
     */
    boolean linked(long offset) {
        if (committed < 0 || offset < Math.max(committed, fetchedEnd) || !fits(offset)) {
            return false;
        }
        inFlight.add(offset);
        return true;
    }

    /** A link taken in hand that nobody went on with after all: processed when fetched. */
    void unlinked(long offset) {
        inFlight.remove(offset);
    }

    void completed(long offset) {
        if (inFlight.remove(offset)) {
            completed.add(offset);
        }
    }

    /** A record in hand left undone (its requests not sent as the workers stop): out of hand, never committed here. */
    void abandoned(long offset) {
        if (inFlight.remove(offset)) {
            abandoned.add(offset);
        }
    }

    int inFlight() {
        return inFlight.size();
    }

    /** Too far ahead of its oldest unfinished record: fetch no more until that one is done. */
    boolean full() {
        return committed >= 0 && fetchedEnd - nextOffset() >= WINDOW / 2;
    }

    /** Whether a commit would move this partition's committed offset or metadata. */
    boolean changed() {
        return !completed.isEmpty() || (committed >= 0 && nextOffset() != committed);
    }

    /** The offset and metadata to commit with the next transaction. */
    OffsetAndMetadata toCommit() {
        long next = nextOffset();
        BitSet done = new BitSet();
        committedDone.tailSet(next, true).forEach(o -> done.set((int) (o - next)));
        completed.tailSet(next, true).forEach(o -> done.set((int) (o - next)));
        return new OffsetAndMetadata(next, done.isEmpty() ? "" : FORMAT + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(done.toByteArray()));
    }

    /** The transaction holding {@link #toCommit()} committed. */
    void committed(OffsetAndMetadata commit) {
        committedDone.addAll(completed);
        completed.clear();
        committed = commit.offset();
        committedDone.headSet(committed, false).clear();
    }

    /** The oldest record not done: one in hand, or the next to fetch (a link may lie beyond it). */
    private long nextOffset() {
        long toFetch = Math.max(committed, fetchedEnd);
        long next = inFlight.isEmpty() ? toFetch : Math.min(inFlight.first(), toFetch);
        return abandoned.isEmpty() ? next : Math.min(abandoned.first(), next);
    }

    /** The done offsets a committed metadata names; none when it is not ours (another tool's commit). */
    static NavigableSet<Long> decode(long base, String metadata) {
        NavigableSet<Long> done = new TreeSet<>();
        if (metadata == null || !metadata.startsWith(FORMAT)) {
            return done;
        }
        try {
            BitSet bits = BitSet.valueOf(Base64.getUrlDecoder().decode(
                    metadata.substring(FORMAT.length()).getBytes(StandardCharsets.US_ASCII)));
            bits.stream().forEach(i -> done.add(base + i));
        } catch (IllegalArgumentException e) {
            done.clear(); // unreadable: process those records again (at least once)
        }
        return done;
    }
}
