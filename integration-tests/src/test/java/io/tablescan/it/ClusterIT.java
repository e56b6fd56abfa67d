package io.tablescan.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The tests of a cluster of worker processes ({@link SharedCluster}), in one class: one fork runs them on one
 * cluster, started once (about eight JVMs) and stopped when they are done, and the other fork starts none. Apart, in
 * two forks, a run started up to three such clusters and kept two until the end.
 *
 * <p>First the status page in a browser, alone (beside the two below, an export of theirs once stayed with an item
 * open for minutes: not explained yet, so not risked). Then the clients' test and the export's edges, at the same
 * time ({@link Together}): both mostly wait (for caps they lift, for commands' JVMs, for a cancel), neither kills a
 * worker, and each tells its scans apart by its own tables; two jobs at once on one cluster is also how it is used. Then, alone, the export that kills a copy-worker (a
 * killed worker's items are taken again, and the clients' Ctrl-C check counts what a copy-worker wrote), and last the
 * kill matrix: it kills workers of every kind, and stops the copy-workers. {@link ClassCpu}'s lines for the
 * two tests that overlap each hold the CPU of their common time; the outer class's line is the whole.
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class ClusterIT {
    @AfterAll
    static void stopTheCluster() {
        SharedCluster.stop();
    }

    @Nested
    @Order(0)
    class Page extends StatusPageIT {}

    @Nested
    @Order(1)
    class Together {
        @Nested
        @Execution(ExecutionMode.CONCURRENT)
        class Clients extends ClusterClientIT {}

        @Nested
        @Execution(ExecutionMode.CONCURRENT)
        class ExportEdges extends ClusterExportEdgesIT {}

    }

    @Nested
    @Order(2)
    class Export extends ClusterExportIT {}

    @Nested
    @Order(3)
    class KillMatrix extends KillMatrixIT {}
}
