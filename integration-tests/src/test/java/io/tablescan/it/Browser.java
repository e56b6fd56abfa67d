package io.tablescan.it;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven by its ChromeDriver (packages chromium and chromium-driver, which .ci/run
 * installs): both paths given, so Selenium downloads nothing, and the browser asks nothing of the network but the
 * page under test.
 */
final class Browser implements AutoCloseable {
    static final Path CHROMIUM = Path.of(System.getProperty("tablescan.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("tablescan.chromedriver", "/usr/bin/chromedriver"));

    final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** A browser of {@code width} x {@code height}; the test is skipped, saying why, where Chromium is not installed. */
    static Browser start(int width, int height) {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
                "no Chromium: apt-get install chromium chromium-driver (.ci/run does)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=" + width + "," + height, "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().withLogFile(new File("target/chromedriver.log")).build();
        return new Browser(new ChromeDriver(service, options));
    }

    /** A wait that looks again when the page redrew what it looked at (the status page redraws every 2 s). */
    WebDriverWait waiting(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(driver, timeout, Duration.ofMillis(200));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    /**
     * Clicks what {@code by} finds, again if the page redrew it in between. The click is the element's own (a script's
     * {@code click()}), not the mouse's at its place: a list redrawn with a new line on top between finding and
     * clicking would take a mouse click to another line.
     */
    void click(By by, Duration timeout) {
        waiting(timeout).until(d -> {
            // after the script returns: a click that opens a dialog (a confirmation) would block the script
            driver.executeScript("const e = arguments[0]; setTimeout(() => e.click(), 0);", d.findElement(by));
            return true;
        });
    }

    @Override
    public void close() {
        driver.quit();
    }
}
