package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.azure.RestTableReader;
import io.tablescan.cli.SampleTable;
import io.tablescan.cli.ScanSpecs;
import io.tablescan.control.ScanStarter;
import io.tablescan.ledger.page.StatusPage;
import io.tablescan.local.FreePorts;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.ScanState;
import io.tablescan.schema.ScanStrategy;
import io.tablescan.schema.TableRef;
import io.tablescan.status.ScanStatusReader;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

/**
 * The ledger's status page in a real browser (Debian's Chromium), served by the shared cluster's ledger process: a
 * copy on the workers appears and its rows rise to the count another client (raw REST) reads in the destination, a
 * parked failure shows its reason, a cancel without the token is refused and with it takes effect; neither the page
 * nor its JSON holds a key, a SAS, a connection string or the token.
 */
@ExtendWith(SharedCluster.class)
abstract class StatusPageIT { // run by ClusterIT, on the fork's one cluster
    private static final Pattern PORT = Pattern.compile("ledger: metrics and health on port (\\d+)");
    private static final Duration LONG = ClusterClientIT.LONG;
    private static final int ROWS = 400;

    @Test
    void aScanAppearsRisesToItsExactCountShowsFailuresAndIsCancelledOnlyWithTheToken(CrashIT.Cluster cluster)
            throws Exception {
        String page = "http://127.0.0.1:" + ledgerPort(cluster) + "/";
        String token = cluster.env.get(StatusPage.TOKEN);
        SampleTable.write(LocalServices.store(), "pagesource", SampleTable.rows(ROWS), 8);
        try (Browser browser = Browser.start(1280, 900)) {
            var driver = browser.driver;
            driver.get(page);
            browser.waiting(LONG).until(d -> d.findElement(By.id("updated")).getText().startsWith("updated"));

            // A copy, held to 40 rows/s (10 s): the page lists it, and on its own page its rows rise to the exact count
            ScanSpec copy = copy("pagecopy", 40);
            ScanStarter.start(cluster.kafka, copy);
            By line = By.cssSelector("tr[data-scan='" + copy.getScanId() + "']");
            browser.waiting(LONG).until(d -> d.findElement(line).getText().contains("emulator/pagesource → emulator/pagecopy"));
            browser.click(By.cssSelector("tr[data-scan='" + copy.getScanId() + "'] a"), LONG);
            browser.waiting(LONG).until(d -> text(d.findElement(By.id("fact-scan"))).equals(copy.getScanId()));
            Set<String> seen = new LinkedHashSet<>(); // the rows done it showed, as drawn (not while hidden)
            String done = String.format(Locale.US, "%,d", ROWS); // as the page formats numbers
            browser.waiting(LONG).until(d -> {
                String rows = text(d.findElement(By.id("fact-rows-done")));
                if (!rows.isEmpty()) {
                    seen.add(rows);
                }
                return rows.equals(done) && text(d.findElement(By.id("fact-state"))).equals("COMPLETED");
            });
            assertThat(count("pagecopy")).as("rows in the destination as raw REST reads them").isEqualTo(ROWS);
            assertThat(seen).as("the rows done the page showed while the copy ran").hasSizeGreaterThan(1)
                    .allSatisfy(rows -> assertThat(Long.parseLong(rows.replace(",", ""))).isBetween(0L, (long) ROWS));
            assertThat(driver.findElements(By.cssSelector("#chart path"))).as("its progress drawn").hasSize(1);

            // A copy into an account alias no worker knows: every batch is parked, and the page says why
            ScanSpec failing = copy(0, new TableRef("nowhere", "pagefailed"));
            ScanStarter.start(cluster.kafka, failing);
            driver.get(page + "#/scan/" + failing.getScanId());
            browser.waiting(LONG).until(d -> text(d.findElement(By.id("fact-state"))).equals("COMPLETED_WITH_FAILURES"));
            browser.waiting(LONG).until(d -> d.findElements(By.cssSelector("#errors li")).stream()
                    .anyMatch(reason -> reason.getText().contains("unknown account alias 'nowhere'")));

            // A copy held to 5 rows/s (80 s): a cancel without the token is refused, with it the scan is cancelled
            ScanSpec slow = copy("pageslow", 5);
            ScanStarter.start(cluster.kafka, slow);
            driver.get(page + "#/scan/" + slow.getScanId());
            browser.waiting(LONG).until(d -> text(d.findElement(By.id("fact-state"))).equals("RUNNING"));
            WebElement field = driver.findElement(By.id("token")); // the actions are not redrawn
            field.clear();
            cancel(browser);
            answer(browser, 1, "wrong or missing token");
            field.sendKeys("not-" + token);
            cancel(browser);
            answer(browser, 2, "wrong or missing token");
            try (ScanStatusReader reader = new ScanStatusReader(cluster.kafka)) {
                assertThat(reader.latest(slow.getScanId()).state()).as("refused: still running").isEqualTo(ScanState.RUNNING);
            }
            field.clear();
            field.sendKeys(token);
            cancel(browser);
            answer(browser, 3, "cancel sent");
            assertThat(ScanAwait.ended(cluster.kafka, slow.getScanId(), LONG).state()).isEqualTo(ScanState.CANCELLED);
            browser.waiting(LONG).until(d -> text(d.findElement(By.id("fact-state"))).equals("CANCELLED"));
            screenshot(browser, copy.getScanId(), page);

            // No secret on the page, in its JSON, or in the ledger's log
            List<String> served = new ArrayList<>(List.of(driver.getPageSource(), get(page), get(page + "api/scans")));
            for (ScanSpec spec : List.of(copy, failing, slow)) {
                served.add(get(page + "api/scans/" + spec.getScanId()));
            }
            String sas = cluster.env.get(SharedCluster.SAS_TOKEN);
            String signature = sas.replaceAll(".*sig=([^&]*).*", "$1");
            List<String> secrets = List.of(LocalServices.azurite().accountKey(), LocalServices.azurite().connectionString(),
                    AzuriteBlob.shared().connectionString(), sas, signature, URLDecoder.decode(signature, StandardCharsets.UTF_8),
                    token);
            for (String text : served) {
                secrets.forEach(secret -> assertThat(text).doesNotContain(secret));
            }
            String log = cluster.children.output("ledger");
            assertThat(log).contains("status page at http://localhost:" + ledgerPort(cluster) + "/ (cancel, throttle");
            assertThat(log).doesNotContain(token);
            assertThat(log.lines().filter(l -> l.contains("status page: cancel of scan " + slow.getScanId() + " sent")))
                    .as("the refused cancels sent nothing, the third one cancel").hasSize(1);
        }
    }

    private static ScanSpec copy(String destination, long readCap) {
        return copy(readCap, new TableRef("emulator", destination));
    }

    private static ScanSpec copy(long readCap, TableRef destination) {
        var spec = ScanSpecs.copy().from(new TableRef("emulator", "pagesource")).to(destination).pageSize(100)
                .strategy(ScanStrategy.PREFIX);
        if (readCap > 0) {
            spec.limits(Map.of("read", readCap));
        }
        return spec.build();
    }

    /**
     * The port the ledger's log names last (a log is appended to by a process started again), waited for: the
     * cluster is whole once the ledger has its partitions, which can come before that line.
     */
    private static int ledgerPort(CrashIT.Cluster cluster) {
        String[] port = {null};
        FreePorts.await(() -> {
            Matcher m = PORT.matcher(cluster.children.output("ledger"));
            while (m.find()) {
                port[0] = m.group(1);
            }
            return port[0] != null;
        }, LONG, () -> true);
        assertThat(port[0]).as("the ledger's log names its port: " + cluster.children.output("ledger")).isNotNull();
        return Integer.parseInt(port[0]);
    }

    /** Clicks Cancel and confirms it, as a user does in the dialog it opens. */
    private static void cancel(Browser browser) {
        browser.click(By.id("cancel"), LONG);
        browser.waiting(LONG).until(org.openqa.selenium.support.ui.ExpectedConditions.alertIsPresent()).accept();
    }

    /** Waits for the page's {@code n}th answer to an action, and checks what it says. */
    private static void answer(Browser browser, int n, String says) {
        By result = By.id("action-result");
        browser.waiting(LONG).until(d -> String.valueOf(n).equals(d.findElement(result).getDomAttribute("data-answers")));
        assertThat(text(browser.driver.findElement(result))).contains(says);
    }

    private static String text(WebElement element) {
        return element.getText().strip();
    }

    private static long count(String table) {
        RestTableReader rest = RestTableReader.fromConnectionString(LocalServices.azurite().connectionString());
        long rows = 0;
        for (var it = rest.rows(table); it.hasNext(); it.next()) {
            rows++;
        }
        return rows;
    }

    private static String get(String url) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(url).isEqualTo(200);
            return response.body();
        }
    }

    /** The scans list and one scan's page as PNG files in target/ (the README's pictures are taken the same way). */
    private static void screenshot(Browser browser, String scanId, String page) throws Exception {
        Files.write(Path.of("target", "status-page-scan.png"), browser.driver.getScreenshotAs(OutputType.BYTES));
        browser.driver.get(page);
        browser.waiting(LONG).until(d -> !d.findElements(By.cssSelector("tr[data-scan='" + scanId + "']")).isEmpty());
        Files.write(Path.of("target", "status-page-scans.png"), browser.driver.getScreenshotAs(OutputType.BYTES));
    }
}
