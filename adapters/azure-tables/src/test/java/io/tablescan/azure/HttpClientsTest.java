package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A command about to exit ends its stores' HTTP clients, whose idle threads would hold the JVM's exit up. */
class HttpClientsTest {
    @Test
    void everyClientMadeForAStoreEndsAtOnce() {
        HttpClient first = RestTableStore.httpClient();
        HttpClient second = RestTableStore.httpClient();
        assertThat(first.isTerminated()).isFalse();

        RestTableStore.shutdownClients(Duration.ofSeconds(10));

        assertThat(first.isTerminated()).as("its selector thread ended").isTrue();
        assertThat(second.isTerminated()).isTrue();
        HttpClient later = RestTableStore.httpClient();
        assertThat(later.isTerminated()).as("a client made afterwards works").isFalse();
        RestTableStore.shutdownClients(Duration.ofSeconds(10));
        assertThat(later.isTerminated()).isTrue();
    }
}
