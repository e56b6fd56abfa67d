package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.runner.CopyRun;
import io.tablescan.runner.RunOptions;
import io.tablescan.runner.TableComparer;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.table.Accounts;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.testcontainers.azure.AzuriteContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The same copy against Kafka and Azurite in containers, for machines with Docker. Without a Docker engine
 * JUnit reports it skipped.
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainersPipelineIT {
    @Container
    static final KafkaContainer KAFKA = new KafkaContainer("apache/kafka:4.3.1");

    @Container
    static final AzuriteContainer AZURITE = new AzuriteContainer("mcr.microsoft.com/azure-storage/azurite:3.35.0");

    @Test
    void copiesATableExactly() {
        AzureTableStore store = AzureTableStore.fromConnectionString(AZURITE.getConnectionString());
        SampleTable.write(store, "containersource", SampleTable.rows(5_000), 8);
        Accounts accounts = new Accounts(name -> null).register("azurite", store);
        var spec = ScanSpecs.copy().from(new TableRef("azurite", "containersource"))
                .to(new TableRef("azurite", "containercopy")).pageSize(500).strategy(ScanStrategy.PREFIX).build();

        CopyRun.Outcome outcome = CopyRun.run(CopyRun.settings(KafkaSettings.of(KAFKA.getBootstrapServers()), accounts,
                System.getenv()), spec, RunOptions.defaults().withTimeout(Duration.ofMinutes(5)));

        assertThat(outcome.totals().complete()).isTrue();
        assertThat(outcome.totals().rowsWritten()).isEqualTo(5_000);
        assertThat(TableComparer.compare(store, "containersource", store, "containercopy").equal()).isTrue();
    }
}
