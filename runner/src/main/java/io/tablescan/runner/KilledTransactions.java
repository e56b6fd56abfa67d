package io.tablescan.runner;

import io.tablescan.runtime.KafkaSettings;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.TransactionResult;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest.TxnMarkerEntry;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the transactions a killed run left on a resumed local job's embedded broker, before the job's workers start.
 *
 * <p>A SIGKILL between a commit's decision and its last marker leaves the transaction prepared. When the broker
 * starts again on its data, its coordinator finishes that transaction while the partitions have no leader yet (the
 * restarted broker's old registration is fenced, then the new one unfenced), takes each leaderless partition for a
 * deleted one and skips its marker (Kafka's {@code TransactionMarkerChannelManager}): the coordinator records the
 * transaction as committed, and the partitions it skipped keep it open for ever, so read_committed readers of them
 * wait for ever. Once the coordinator has ended every transaction, this writes the marker it decided on (commit or
 * abort) where a partition lacks it: the request the coordinator itself sends. A partition still held after
 * {@link #LIMIT} (its transaction one the coordinator does not know, or holds a later one of) ends the command with
 * one line naming {@code --restart}.
 */
final class KilledTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(KilledTransactions.class);
    /** Long enough for the killed run's open transactions to time out (15 s) and be aborted (checked every 10 s). */
    static final Duration LIMIT = Duration.ofMinutes(2);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Set<TransactionState> ENDED =
            Set.of(TransactionState.COMPLETE_COMMIT, TransactionState.COMPLETE_ABORT, TransactionState.EMPTY);

    /** Producer {@code state}'s transaction, open on {@code partition} (led by {@code leader}). */
    record Open(TopicPartition partition, Node leader, ProducerState state) {}

    private KilledTransactions() {}

    /**
     * Returns once no partition is held by a transaction, having written the markers its coordinator skipped. What
     * cannot be decided yet (the coordinator still loading or ending a transaction, a partition without a leader, a
     * marker refused while the broker settles) is looked at again until {@link #LIMIT}.
     */
    static void settle(KafkaSettings kafka) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        try (Admin admin = kafka.newAdmin()) {
            while (true) {
                // the coordinator first: once it has ended every transaction, the partitions read next are final
                Map<Long, TransactionListing> coordinator = new HashMap<>();
                admin.listTransactions().all().get().forEach(l -> coordinator.put(l.producerId(), l));
                List<Open> open = open(admin);
                if (open.isEmpty()) {
                    return;
                }
                if (coordinator.values().stream().allMatch(l -> ENDED.contains(l.state()))) {
                    Map<Long, TransactionDescription> described = new HashMap<>(); // one producer, many partitions
                    for (Open o : open) { // still open here: a marker the coordinator skipped
                        TransactionListing listing = coordinator.get(o.state().producerId());
                        if (listing != null && !described.containsKey(listing.producerId())) {
                            described.put(listing.producerId(), admin.describeTransactions(
                                    List.of(listing.transactionalId())).description(listing.transactionalId()).get());
                        }
                        Optional<TxnMarkerEntry> marker = listing == null || o.leader() == null ? Optional.empty()
                                : marker(o, described.get(listing.producerId()));
                        if (marker.isPresent()) {
                            LOG.info("ending a transaction of the killed run on {} as its coordinator did ({}): its "
                                    + "marker was skipped", o.partition(), marker.get().transactionResult());
                            write(o.leader(), marker.get());
                        }
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new WorkerStoppedException(stuck(open.getFirst().partition()));
                }
                Thread.sleep(POLL.toMillis());
            }
        } catch (ExecutionException e) {
            throw new WorkerStoppedException("the embedded broker did not answer about the killed run's transactions ("
                    + e.getCause().getClass().getSimpleName() + "); run the same command again to resume the job");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerStoppedException("interrupted while ending the killed run's transactions");
        }
    }

    private static String stuck(TopicPartition partition) {
        return "the embedded broker holds a transaction of the killed run that Kafka will not end (" + partition
                + "); run the same command with --restart to start the job anew";
    }

    /**
     * The marker that ends {@code open} as its coordinator ended it ({@code coordinator}), or empty when the
     * coordinator has not ended it or holds a later transaction of that producer. Transactions of version 2 bump the
     * producer's epoch when they end (the marker carries the bumped one); those of version 1 keep it.
     */
    static Optional<TxnMarkerEntry> marker(Open open, TransactionDescription coordinator) {
        ProducerState state = open.state();
        TransactionResult result = switch (coordinator.state()) {
            case COMPLETE_COMMIT -> TransactionResult.COMMIT;
            case COMPLETE_ABORT -> TransactionResult.ABORT;
            default -> null;
        };
        int bump = coordinator.producerEpoch() - state.producerEpoch();
        if (result == null || coordinator.producerId() != state.producerId() || bump < 0 || bump > 1) {
            return Optional.empty();
        }
        return Optional.of(new TxnMarkerEntry(state.producerId(), (short) coordinator.producerEpoch(),
                state.coordinatorEpoch().orElse(0), result, List.of(open.partition()), (short) (bump == 1 ? 2 : 1)));
    }

    /** The partitions whose last stable offset a transaction holds back, with the transaction. */
    private static List<Open> open(Admin admin) throws ExecutionException, InterruptedException {
        Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
        Map<TopicPartition, Node> leaders = new HashMap<>();
        admin.describeTopics(topics).allTopicNames().get().values().forEach(topic -> topic.partitions()
                .forEach(p -> leaders.put(new TopicPartition(topic.name(), p.partition()), p.leader())));
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        leaders.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        var ends = admin.listOffsets(latest).all().get();
        var stable = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
        List<TopicPartition> behind = leaders.keySet().stream()
                .filter(tp -> stable.get(tp).offset() < ends.get(tp).offset()).toList();
        List<Open> open = new ArrayList<>();
        if (!behind.isEmpty()) {
            admin.describeProducers(behind).all().get().forEach((tp, producers) -> producers.activeProducers().stream()
                    .filter(p -> p.currentTransactionStartOffset().isPresent())
                    .forEach(p -> open.add(new Open(tp, leaders.get(tp), p))));
        }
        return open;
    }

    /**
     * Sends {@code marker} to {@code leader} as a WriteTxnMarkers request, the one a transaction coordinator sends:
     * Kafka's admin client offers it for an abort only ({@code abortTransaction}).
     */
    static void write(Node leader, TxnMarkerEntry marker) {
        WriteTxnMarkersRequest request = new WriteTxnMarkersRequest.Builder(List.of(marker)).build();
        RequestHeader header = new RequestHeader(ApiKeys.WRITE_TXN_MARKERS, request.version(), "tablescan", 1);
        ByteBuffer bytes = request.serializeWithHeader(header);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(leader.host(), leader.port()), 10_000);
            socket.setSoTimeout(30_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            var response = (WriteTxnMarkersResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
            response.errorsByProducerId().get(marker.producerId()).forEach((tp, error) -> {
                if (error != Errors.NONE) { // e.g. the group coordinator still loading: looked at again
                    LOG.info("the embedded broker refused the marker on {} for now ({})", tp, error);
                }
            });
        } catch (IOException e) { // looked at again
            LOG.info("could not send a marker to the embedded broker ({})", e.getClass().getSimpleName());
        }
    }
}
