package io.tablescan.cli;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topic settings of start and ledger: a malformed value is one line and exit 2, before Kafka is waited for. */
class TopicSettingsTest {
    private static final String[] START = TargetOptionsTest.with(TargetOptionsTest.START, "--dest-account", "b",
            "--dest-table", "dst");
    private static final String[] LEDGER = {"ledger", "--kafka", "127.0.0.1:1"};

    @Test
    void aMalformedReplicationOrPartitionCountIsAUsageError() {
        for (String[] command : new String[][] {START, LEDGER}) {
            Cli.assertOneLine(Cli.run(Map.of("TABLESCAN_TOPIC_REPLICATION", "abc"), command), UserError.USAGE,
                    "tablescan: TABLESCAN_TOPIC_REPLICATION must be a positive whole number, got 'abc'");
            Cli.assertOneLine(Cli.run(Map.of("TABLESCAN_TOPIC_REPLICATION", "0"), command), UserError.USAGE,
                    "TABLESCAN_TOPIC_REPLICATION must be a positive whole number, got '0'");
            Cli.assertOneLine(Cli.run(Map.of("TABLESCAN_TOPIC_REPLICATION", "70000"), command), UserError.USAGE,
                    "TABLESCAN_TOPIC_REPLICATION must be at most 32767, got '70000'");
            Cli.assertOneLine(Cli.run(Map.of("TABLESCAN_TOPIC_PARTITIONS", "many"), command), UserError.USAGE,
                    "TABLESCAN_TOPIC_PARTITIONS must be a positive whole number, got 'many'");
        }
    }
}
