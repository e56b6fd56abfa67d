package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.cli.ScanSpecs;
import io.tablescan.ledger.page.ScanBoard;
import io.tablescan.ledger.page.StatusPage;
import io.tablescan.metrics.Health;
import io.tablescan.metrics.MetricsServer;
import io.tablescan.schema.ItemCounts;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStatus;
import io.tablescan.schema.TableRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;

/**
 * The status page's load with 200 scans, in Debian's Chromium: every line drawn, and how long it took (rerun it with
 * {@code ./tablescan test -Dit.test=StatusPageLoadIT}; the figures are printed and kept in target/).
 */
class StatusPageLoadIT {
    /**
     * The page with 200 scans in its board (no cluster: the board is fed directly), loaded cold in the browser: every
     * line is drawn; the time to first paint and to the full table are printed and kept in target/ (the README's
     * Performance table has them).
     */
    @Test
    void twoHundredScansAreListedAndTheirLoadIsTimed() throws Exception {
        ScanBoard board = new ScanBoard();
        long now = System.currentTimeMillis();
        for (int i = 0; i < 200; i++) {
            board.apply(status(i, now));
        }
        try (MetricsServer server = MetricsServer.start("127.0.0.1", 0, Health.all(List.of()));
                Browser browser = Browser.start(1280, 900)) {
            new StatusPage(board, "pagebench", new StatusPage.Actions() {
                @Override
                public void cancel(String scanId) {}

                @Override
                public void throttle(String scanId, Long maxRate, Long maxWriteRate) {}

                @Override
                public int retry(String scanId) {
                    return 0;
                }
            }, Optional.empty()).serveOn(server);
            String page = "http://127.0.0.1:" + server.port() + "/";
            List<Long> paints = new ArrayList<>();
            List<Long> drawn = new ArrayList<>();
            for (int run = 0; run < 5; run++) {
                browser.driver.get("about:blank");
                browser.driver.get(page + "?run=" + run);
                browser.waiting(Duration.ofMinutes(1)).until(d -> d.findElements(By.cssSelector("#scans tbody tr")).size() == 200);
                List<?> timing = (List<?>) ((JavascriptExecutor) browser.driver).executeScript(
                        "const p = performance.getEntriesByName('first-contentful-paint')[0];"
                                + "return [p ? Math.round(p.startTime) : -1, Number(document.body.dataset.drawnAt)];");
                paints.add(((Number) timing.get(0)).longValue());
                drawn.add(((Number) timing.get(1)).longValue());
            }
            String report = "status page with 200 scans, 5 loads in a fresh tab: first contentful paint " + paints
                    + " ms (median " + median(paints) + "), the 200 lines drawn " + drawn + " ms (median " + median(drawn)
                    + ") after navigation started";
            System.out.println(report);
            Files.writeString(Path.of("target", "status-page-200-scans.txt"), report + "\n");
            assertThat(paints).as("a first paint each time").allMatch(ms -> ms > 0);
            assertThat(browser.driver.findElements(By.cssSelector("#scans tbody tr .state"))).hasSize(200);
        }
    }

    private static ScanStatus status(int i, long now) {
        var spec = ScanSpecs.copy().from(new TableRef("source" + i % 7, "table" + i))
                .to(new TableRef("copies", "table" + i)).build();
        ItemCounts items = new ItemCounts(40, 400, 2_000);
        return ScanStatus.newBuilder().setScanId(spec.getScanId() + "-" + i).setSpec(spec)
                .setState(i % 10 == 0 ? ScanState.RUNNING : ScanState.COMPLETED).setEmitted(items).setDone(items)
                .setFailed(new ItemCounts(0, 0, 0)).setSkipped(new ItemCounts(0, 0, 0))
                .setRowsRead(1_000_000L + i).setRowsWritten(1_000_000L + i).setStartMillis(now - i * 60_000L)
                .setLastEventMillis(now - i * 60_000L + 30_000).setEndMillis(i % 10 == 0 ? null : now - i * 60_000L + 30_000)
                .setRowsPerSecond(33_000).setRequests(5_000).setMaxDepth(3).setRateWindowStartMillis(now)
                .setRateWindowStartRows(0).setErrors(List.of()).build();
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
