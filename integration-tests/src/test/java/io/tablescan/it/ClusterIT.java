package io.tablescan.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestClassOrder;

/**
 * The tests of a cluster of worker processes ({@link SharedCluster}), in one class: one fork runs them one after the
 * other on one cluster, started once (about eight JVMs) and stopped when they are done, and the other fork starts
 * none. Apart, in two forks, a run started up to three such clusters and kept two until the end. The kill matrix
 * comes last: it kills workers of every kind, and stops the copy-workers.
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class ClusterIT {
    @AfterAll
    static void stopTheCluster() {
        SharedCluster.stop();
    }

    @Nested
    @Order(1)
    class Clients extends ClusterClientIT {}

    @Nested
    @Order(2)
    class Export extends ClusterExportIT {}

    @Nested
    @Order(3)
    class ExportEdges extends ClusterExportEdgesIT {}

    @Nested
    @Order(4)
    class KillMatrix extends KillMatrixIT {}
}
