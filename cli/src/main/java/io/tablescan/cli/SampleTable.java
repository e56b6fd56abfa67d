package io.tablescan.cli;

import io.tablescan.items.EntityBatcher;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * A package-catalog-like sample table: PartitionKeys like NuGet package ids (long shared prefixes such as
 * "microsoft.extensions."), a few versions each as RowKeys, one big partition, and every EDM type.
 */
public final class SampleTable {
    public static final String[] OWNERS = {"microsoft", "system", "newtonsoft", "serilog", "nunit", "xunit", "azure",
        "amazon", "google", "castle", "autofac", "dapper", "polly", "humanizer", "moq", "nlog", "automapper", "mediatr",
        "npgsql", "stackexchange"};
    public static final String[] WORDS = {"extensions", "data", "core", "json", "logging", "http", "storage",
        "abstractions", "client", "sql", "tables", "common", "runtime", "hosting", "configuration", "identity", "web",
        "messaging", "diagnostics", "security"};
    public static final String BIG_PARTITION = "zz.big.partition";

    private SampleTable() {}

    /** The rows of an n-row sample, in no particular order; deterministic for a given n. */
    public static List<Row> rows(int n) {
        Random random = new Random(n);
        List<Row> rows = new ArrayList<>(n);
        int big = n >= 1000 ? n / 10 : 0;
        for (int i = 0; i < big; i++) {
            rows.add(row(BIG_PARTITION, String.format("%09d", i), random));
        }
        int p = 0;
        while (rows.size() < n) {
            String id = OWNERS[random.nextInt(OWNERS.length)] + "." + WORDS[random.nextInt(WORDS.length)]
                    + (random.nextBoolean() ? "." + WORDS[random.nextInt(WORDS.length)] : "") + "." + p++;
            int versions = Math.min(1 + random.nextInt(8), n - rows.size());
            for (int v = 0; v < versions; v++) {
                rows.add(row(id, (v / 3) + "." + (v % 3) + "." + random.nextInt(10), random));
            }
        }
        return rows;
    }

    public static Row row(String partitionKey, String rowKey, Random random) {
        byte[] hash = new byte[16];
        random.nextBytes(hash);
        double score = random.nextInt(50) == 0 ? Double.NaN : random.nextInt(4) == 0 ? random.nextInt(100) : random.nextDouble();
        return new Row(partitionKey, rowKey, List.of(
                new RowProperty("Id", EdmType.STRING, partitionKey + "@" + rowKey),
                new RowProperty("Downloads", EdmType.INT64, random.nextLong(1L << 40)),
                new RowProperty("Major", EdmType.INT32, random.nextInt(20)),
                new RowProperty("Score", EdmType.DOUBLE, score),
                new RowProperty("Listed", EdmType.BOOLEAN, random.nextBoolean()),
                new RowProperty("Published", EdmType.DATETIME, 15_000_000_000_000_000L + random.nextLong(1L << 50)),
                new RowProperty("Guid", EdmType.GUID, new UUID(random.nextLong(), random.nextLong()).toString()),
                new RowProperty("Hash", EdmType.BINARY, hash)));
    }

    /** Writes rows in batches of one partition, {@code concurrency} batches at a time. */
    public static void write(TableStore store, String table, List<Row> rows, int concurrency) {
        write(store, table, rows, concurrency, () -> false);
    }

    /** Stops early, leaving the table partly filled, once {@code stop} is true (Ctrl-C in the demo). */
    static void write(TableStore store, String table, List<Row> rows, int concurrency,
            java.util.function.BooleanSupplier stop) {
        store.createTableIfNotExists(table);
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(java.util.Comparator.comparing(Row::partitionKey).thenComparing(Row::rowKey));
        List<List<Row>> batches = EntityBatcher.rowBatches(sorted);
        Semaphore permits = new Semaphore(concurrency);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (List<Row> batch : batches) {
                futures.add(executor.submit(() -> {
                    permits.acquireUninterruptibly();
                    try {
                        if (stop.getAsBoolean()) {
                            return;
                        }
                        store.upsert(table, batch.get(0).partitionKey(), batch);
                    } finally {
                        permits.release();
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot write the sample table: " + e.getMessage(), e);
        }
    }
}
