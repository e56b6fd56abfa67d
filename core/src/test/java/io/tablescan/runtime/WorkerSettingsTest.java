package io.tablescan.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.sink.SinkPlugins;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Requests in flight: the writers' setting, and the readers' own one that defaults to it; the sink plugins; variants. */
class WorkerSettingsTest {
    static final String KAFKA = "KAFKA_BOOTSTRAP_SERVERS";

    @Test
    void readersDefaultToTheWorkersInFlightLimit() {
        WorkerSettings settings = WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092",
                WorkerSettings.MAX_IN_FLIGHT, "500"));
        assertThat(settings.maxInFlight()).isEqualTo(500);
        assertThat(settings.readInFlight()).isEqualTo(500);
    }

    @Test
    void readersTakeTheirOwnLimitWhenSet() {
        WorkerSettings settings = WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092",
                WorkerSettings.MAX_IN_FLIGHT, "500", WorkerSettings.READ_IN_FLIGHT, "8"));
        assertThat(settings.maxInFlight()).isEqualTo(500);
        assertThat(settings.readInFlight()).isEqualTo(8);
    }

    @Test
    void aLimitBelowOneIsAClearError() {
        assertThatThrownBy(() -> WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092",
                WorkerSettings.READ_IN_FLIGHT, "0")))
                .hasMessage("TABLESCAN_READ_IN_FLIGHT must be a positive whole number, got '0'");
    }

    @Test
    void aWorkerTakesItsSinkPluginsFromTheFolderTheEnvironmentNames(@TempDir Path folder) {
        assertThat(WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092")).plugins()).isSameAs(SinkPlugins.NONE);
        assertThat(WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092", SinkPlugins.VARIABLE,
                folder.toString())).plugins().jars()).isEmpty();
        Path missing = folder.resolve("nosuch");
        assertThatThrownBy(() -> WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092", SinkPlugins.VARIABLE,
                missing.toString()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TABLESCAN_PLUGINS names no folder: " + missing);
    }

    @Test
    void aVariantIsACopyAndLeavesTheSettingsItCameFromAsTheyWere(@TempDir Path folder) {
        WorkerSettings settings = WorkerSettings.fromEnvironment(Map.of(KAFKA, "127.0.0.1:9092",
                WorkerSettings.MAX_IN_FLIGHT, "500"));

        WorkerSettings variant = settings.withReadInFlight(8).withPlugins(SinkPlugins.in(folder));

        assertThat(variant).isNotSameAs(settings);
        assertThat(variant.readInFlight()).isEqualTo(8);
        assertThat(variant.maxInFlight()).isEqualTo(500);
        assertThat(variant.plugins()).isNotSameAs(SinkPlugins.NONE);
        assertThat(settings.readInFlight()).isEqualTo(500);
        assertThat(settings.plugins()).isSameAs(SinkPlugins.NONE);
    }
}
