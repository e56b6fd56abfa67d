package io.tablescan.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a Prometheus text endpoint, with sums over the samples of a metric that carry given labels. */
record PrometheusScrape(List<Sample> samples) {
    record Sample(String name, String labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)");
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    static PrometheusScrape of(int port) {
        try {
            String body = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
            return parse(body);
        } catch (IOException e) {
            return new PrometheusScrape(List.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (!line.startsWith("#") && m.find()) {
                samples.add(new Sample(m.group(1), m.group(2) == null ? "" : m.group(2), Double.parseDouble(m.group(3))));
            }
        }
        return new PrometheusScrape(samples);
    }

    /** The sum of {@code name}'s samples whose labels contain every {@code label="value"} given. */
    double sum(String name, String... labels) {
        return samples.stream().filter(s -> s.name().equals(name))
                .filter(s -> List.of(labels).stream().allMatch(l -> s.labels().contains(l)))
                .mapToDouble(Sample::value).sum();
    }

    boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /** GET a health path; the HTTP status, or -1 when nothing answers. */
    static int status(int port, String path) {
        try {
            return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
