package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exports for analytics tools, read by another reader than the one that wrote them: a table of every EDM type, edge
 * values, texts in other than the canonical form and odd keys (written by Microsoft's JavaScript SDK) exported as
 * Parquet and as CSV, then read by DuckDB (its own C++ readers, not parquet-java), and each value compared with the
 * JavaScript SDK's reading of the source. A Parquet export imported back equals the source as that SDK reads it.
 */
class AnalyticsExportIT {
    private static final String SOURCE = "analyticssource";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter SEVEN_DIGITS = DateTimeFormatter.ofPattern(
            "yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static List<String> sourceDump;

    @TempDir
    Path temp;

    @BeforeAll
    static void fill() throws Exception {
        assertThat(FidelityIT.client("fill", SOURCE)).contains("filled " + SOURCE);
        sourceDump = FidelityIT.client("dump", SOURCE).lines().toList();
        assertThat(sourceDump).hasSize(67);
    }

    @Test
    void aParquetExportReadsInDuckDbAsTheSdkReadsTheSourceAndImportsBackExactly() throws Exception {
        Path folder = temp.resolve("parquet");
        Cli.Run out = Cli.run("export", "--source-connection-string", cs(), "--source-table", SOURCE, "--to",
                folder.toString(), "--format", "parquet");
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        JsonNode manifest = JSON.readTree(folder.resolve("manifest.json").toFile());
        assertThat(manifest.path("format").asText()).isEqualTo("parquet");
        JsonNode schema = JSON.readTree(folder.resolve("schema.json").toFile());
        List<String> names = new ArrayList<>();
        schema.path("columns").forEach(c -> names.add(c.path("name").asText()));
        // the keys and Timestamp first; a DateTime column with values out of a nanosecond timestamp's years has
        // its typed column and a column of texts beside it; texts not in the canonical form kept as texts
        assertThat(names.subList(0, 3)).containsExactly("PartitionKey", "RowKey", "Timestamp");
        assertThat(names).contains("When", "When@Text", "Other", "OtherBig", "OtherId", "Bytes", "Id", "Real");

        assertThat(duckDbRows(folder + "/*.parquet", schema, false)).isEqualTo(sdkRows(sourceDump));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
                ResultSet r = s.executeQuery("SELECT typeof(\"When\"), typeof(\"Id\"), typeof(\"Big\"), "
                        + "count(\"Timestamp\") FROM read_parquet('" + folder + "/*.parquet') GROUP BY ALL")) {
            assertThat(r.next()).isTrue();
            assertThat(List.of(r.getString(1), r.getString(2), r.getString(3))).containsExactly("TIMESTAMP_NS",
                    "UUID", "BIGINT");
            assertThat(r.getLong(4)).isEqualTo(67);
        }

        Cli.Run in = Cli.run("import", "--from", folder.toString(), "--dest-connection-string", cs(), "--dest-table",
                "analyticsfromparquet");
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(FidelityIT.client("dump", "analyticsfromparquet").lines().toList()).isEqualTo(sourceDump);
    }

    @Test
    void aCsvExportReadsInDuckDbAsTheServiceTextsAndIsNotImported() throws Exception {
        Path folder = temp.resolve("csv");
        Cli.Run out = Cli.run("export", "--source-connection-string", cs(), "--source-table", SOURCE, "--to",
                folder.toString(), "--format", "csv");
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        JsonNode schema = JSON.readTree(folder.resolve("schema.json").toFile());
        assertThat(duckDbRows(folder + "/*.csv", schema, true)).isEqualTo(sdkRows(sourceDump));

        Cli.Run in = Cli.run("import", "--from", folder.toString(), "--dest-connection-string", cs(), "--dest-table",
                "analyticsfromcsv");
        assertThat(in.exitCode()).isNotZero();
        assertThat(in.err()).contains("is CSV").doesNotContain("Exception").hasLineCount(1);
    }

    @Test
    void aParquetExportToBlobReadsInDuckDbAsTheSdkReadsTheSource() throws Exception {
        String both = cs() + AzuriteBlob.shared().connectionString().replaceAll(".*(BlobEndpoint=[^;]*;).*", "$1");
        Map<String, String> env = Map.of("TABLESCAN_ACCOUNT_AN_CONNECTION_STRING", both);
        Cli.Run out = Cli.run(env, "export", "--source-account", "an", "--source-table", SOURCE,
                "--to-container", "analytics", "--to-prefix", "parquet/1", "--to-account", "an", "--format", "parquet");
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();

        BlobContainerClient container = new BlobServiceClientBuilder()
                .connectionString(AzuriteBlob.shared().connectionString())
                .serviceVersion(io.tablescan.backup.BlobStore.SERVICE_VERSION).buildClient()
                .getBlobContainerClient("analytics");
        Path copy = Files.createDirectories(temp.resolve("fromblob"));
        container.listBlobs().forEach(blob -> container.getBlobClient(blob.getName())
                .downloadToFile(copy.resolve(blob.getName().substring("parquet/1/".length())).toString()));
        JsonNode schema = JSON.readTree(copy.resolve("schema.json").toFile());
        assertThat(duckDbRows(copy + "/*.parquet", schema, false)).isEqualTo(sdkRows(sourceDump));

        // the import reads a Blob export's files as a folder's (the same store reads; BackupIT imports from Blob)
    }

    @Test
    void parquetFilesAnotherToolWroteImportWithFormatAndTheirTypes() throws Exception {
        Path folder = Files.createDirectories(temp.resolve("duckdb"));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement()) {
            s.execute("COPY (SELECT 'p' || (i % 3)::VARCHAR AS PartitionKey, 'r' || i::VARCHAR AS RowKey, "
                    + "i::INTEGER AS N, i::BIGINT * 4000000000 AS L, i * 1.5::DOUBLE AS D, i % 2 = 0 AS B, "
                    + "TIMESTAMP_NS '2024-01-02 03:04:05.123456789' AS T, "
                    + "('00000000-0000-0000-0000-00000000000' || (i % 10)::VARCHAR)::UUID AS G, "
                    + "CASE WHEN i % 5 = 0 THEN NULL ELSE 'x' || i::VARCHAR END AS S, "
                    + "'\\x00\\xFF'::BLOB AS Y, TIMESTAMP '9999-12-31 23:59:59.999999' AS Far, "
                    + "TIMESTAMP '1601-01-01 00:00:00' AS Early, (4000000000 + i)::UINTEGER AS U, 200::UTINYINT AS UT "
                    + "FROM range(20) t(i)) TO '" + folder.resolve("data_0.parquet") + "' (FORMAT parquet)");
            // columns no Azure Table type holds, or named as a type they are not: refused before a row is written
            s.execute("COPY (SELECT 'p' AS PartitionKey, 'r' AS RowKey, 1::UBIGINT AS Big) TO '"
                    + Files.createDirectories(temp.resolve("ubigint")).resolve("a.parquet") + "' (FORMAT parquet)");
            s.execute("COPY (SELECT 'p' AS PartitionKey, 'r' AS RowKey, 'x' AS \"A@Int32\") TO '"
                    + Files.createDirectories(temp.resolve("misnamed")).resolve("a.parquet") + "' (FORMAT parquet)");
        }
        for (String bad : List.of("ubigint", "misnamed")) {
            Cli.Run refused = Cli.run("import", "--from", temp.resolve(bad).toString(), "--format", "parquet",
                    "--dest-connection-string", cs(), "--dest-table", "analyticsrefused");
            assertThat(refused.exitCode()).as(bad).isEqualTo(1);
            assertThat(refused.err()).as(bad).contains("a.parquet is not valid: column ")
                    .contains("nothing was written").hasLineCount(1);
        }
        Cli.Run without = Cli.run("import", "--from", folder.toString(), "--dest-connection-string", cs(),
                "--dest-table", "analyticsfromduckdb");
        assertThat(without.exitCode()).isEqualTo(4);
        assertThat(without.err()).contains("give --format").hasLineCount(1);

        Cli.Run in = Cli.run("import", "--from", folder.toString(), "--format", "parquet", "--dest-connection-string",
                cs(), "--dest-table", "analyticsfromduckdb");
        assertThat(in.exitCode()).as(in.out() + in.err()).isZero();
        assertThat(in.out()).contains("(20 rows; no manifest: every *.parquet file)").contains("imported 20 rows");
        Map<String, Map<String, List<String>>> rows = sdkRows(FidelityIT.client("dump", "analyticsfromduckdb")
                .lines().toList());
        assertThat(rows).hasSize(20);
        // row 7: every type as DuckDB wrote it; the nanoseconds beyond the service's 100 ns dropped, microsecond
        // timestamps far from 1970 (which nanoseconds could not hold) exact, unsigned integers not wrapped
        Map<String, List<String>> expected = new TreeMap<>();
        expected.put("N", List.of("Int32", "7"));
        expected.put("L", List.of("Int64", "28000000000"));
        expected.put("D", List.of("Double", "10.5"));
        expected.put("B", List.of("Boolean", "false"));
        expected.put("T", List.of("DateTime", "2024-01-02T03:04:05.1234567Z"));
        expected.put("G", List.of("Guid", "00000000-0000-0000-0000-000000000007"));
        expected.put("S", List.of("String", "x7"));
        expected.put("Y", List.of("Binary", "AP8="));
        expected.put("Far", List.of("DateTime", "9999-12-31T23:59:59.9999990Z"));
        expected.put("Early", List.of("DateTime", "1601-01-01T00:00:00.0000000Z"));
        expected.put("U", List.of("Int64", "4000000007"));
        expected.put("UT", List.of("Int32", "200"));
        assertThat(rows.get("p1\u0000r7")).isEqualTo(expected);
        assertThat(rows.get("p2\u0000r5")).doesNotContainKey("S"); // NULL: no property
    }

    @Test
    void aProfileCountsRowsPartitionsAndEachPropertysTypesAsTheSdkReadsThem() throws Exception {
        Map<String, Map<String, List<String>>> rows = sdkRows(sourceDump);
        Map<String, Map<String, Long>> types = new TreeMap<>();
        rows.values().forEach(row -> row.forEach((name, typed) -> types.computeIfAbsent(name, n -> new TreeMap<>())
                .merge(typed.get(0), 1L, Long::sum)));
        long partitions = rows.keySet().stream().map(k -> k.substring(0, k.indexOf('\u0000'))).distinct().count();

        Cli.Run run = Cli.run("profile", "--source-connection-string", cs(), "--source-table", SOURCE, "--json");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        JsonNode profile = JSON.readTree(run.out());
        assertThat(profile.path("rows").asLong()).isEqualTo(67);
        assertThat(profile.path("partitions").asLong()).isEqualTo(partitions).isEqualTo(10);
        Map<String, Map<String, Long>> profiled = new TreeMap<>();
        profile.path("properties").forEach(p -> p.path("types").forEach(t -> profiled.computeIfAbsent(
                p.path("name").asText(), n -> new TreeMap<>()).put(t.path("type").asText(), t.path("rows").asLong())));
        assertThat(profiled).isEqualTo(types);
        assertThat(profile.path("largestPartitionsByRows").get(0).path("rows").asLong()).isEqualTo(rows.keySet()
                .stream().collect(java.util.stream.Collectors.groupingBy(k -> k.substring(0, k.indexOf('\u0000')),
                        java.util.stream.Collectors.counting())).values().stream().mapToLong(Long::longValue).max()
                .orElseThrow());
        long bucketed = 0;
        for (JsonNode bucket : profile.path("keySpace")) {
            bucketed += bucket.path("rows").asLong();
        }
        assertThat(bucketed).isEqualTo(67);
        // one string of 16,000 surrogate pairs: 64,004 bytes, far from the 1 MiB an entity may hold
        assertThat(profile.path("nearLimits").path("entitySize").path("rows").asLong()).isZero();

        // the text form of the same figures: TableProfileTest
    }

    /**
     * Each row of the JavaScript client's dump: its keys, and each property's type and text as the service's raw
     * JSON gives them (the SDK's own reading, with disableTypeConversion, calls a Double sent as 2.0 without its
     * annotation an Int32): the type its {@code @odata.type} names, else the one its JSON literal has.
     */
    private static Map<String, Map<String, List<String>>> sdkRows(List<String> dump) throws Exception {
        Map<String, Map<String, List<String>>> rows = new TreeMap<>();
        for (String line : dump) {
            JsonNode row = JSON.readTree(line);
            Map<String, List<String>> properties = new TreeMap<>();
            row.path("raw").properties().forEach(e -> {
                String text = e.getValue().get(1).asText();
                JsonNode sdkType = row.path("sdk").path(e.getKey()).get(0);
                String type = e.getValue().get(0).isNull() ? switch (sdkType.asText()) {
                    case "Int32" -> text.matches("-?[0-9]+") ? "Int32" : "Double"; // a number with a point
                    default -> sdkType.asText(); // String, Boolean
                } : e.getValue().get(0).asText().substring("Edm.".length());
                properties.put(e.getKey(), List.of(type, type.equals("Double") ? number(text) : text));
            });
            rows.put(row.path("pk").asText() + "\u0000" + row.path("rk").asText(), properties);
        }
        return rows;
    }

    /**
     * The same from DuckDB's reading of the files: each column's value as text by the column's type in schema.json
     * (a DateTime from DuckDB's nanoseconds since 1970, a Guid from its UUID, a Binary from its BLOB as base64);
     * {@code csv}: every column read as text.
     */
    private static Map<String, Map<String, List<String>>> duckDbRows(String files, JsonNode schema, boolean csv)
            throws Exception {
        List<String> select = new ArrayList<>(List.of("\"PartitionKey\"", "\"RowKey\""));
        List<JsonNode> columns = new ArrayList<>();
        for (JsonNode c : schema.path("columns")) {
            if (c.hasNonNull("property")) {
                columns.add(c);
                String q = "\"" + c.path("name").asText() + "\"";
                boolean text = csv || c.path("text").asBoolean();
                select.add(text ? q : switch (c.path("type").asText()) {
                    case "DATETIME" -> "epoch_ns(" + q + ")";
                    case "GUID" -> q + "::VARCHAR";
                    case "BINARY" -> "to_base64(" + q + ")";
                    default -> q;
                });
            }
        }
        String source = csv ? "read_csv('" + files + "', all_varchar = true, header = true, allow_quoted_nulls = false)"
                : "read_parquet('" + files + "')";
        Map<String, Map<String, List<String>>> rows = new TreeMap<>();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
                ResultSet r = s.executeQuery("SELECT " + String.join(", ", select) + " FROM " + source)) {
            while (r.next()) {
                Map<String, List<String>> properties = new HashMap<>();
                for (int i = 0; i < columns.size(); i++) {
                    JsonNode c = columns.get(i);
                    int at = i + 3;
                    if (r.getObject(at) == null) {
                        continue;
                    }
                    String type = sdkType(c.path("type").asText());
                    boolean text = csv || c.path("text").asBoolean();
                    String value = text ? r.getString(at) : switch (c.path("type").asText()) {
                        case "DATETIME" -> {
                            long nanos = r.getLong(at);
                            yield SEVEN_DIGITS.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                                    Math.floorMod(nanos, 1_000_000_000L)));
                        }
                        case "DOUBLE" -> Double.toString(r.getDouble(at));
                        default -> r.getString(at);
                    };
                    properties.put(c.path("property").asText(), List.of(type, type.equals("Double")
                            ? number(value) : value));
                }
                String key = r.getString(1) + "\u0000" + r.getString(2);
                assertThat(rows.put(key, new TreeMap<>(properties))).as("row %s read once", key).isNull();
            }
        }
        return rows;
    }

    /** A double's text in one form (the SDK gives 5e-324, Java 4.9E-324): its value, -0 and NaN included. */
    private static String number(String text) {
        return Double.toString(Double.parseDouble(text));
    }

    private static String sdkType(String type) {
        return switch (type) {
            case "STRING" -> "String";
            case "INT32" -> "Int32";
            case "INT64" -> "Int64";
            case "DOUBLE" -> "Double";
            case "BOOLEAN" -> "Boolean";
            case "DATETIME" -> "DateTime";
            case "GUID" -> "Guid";
            default -> "Binary";
        };
    }

    private static String cs() {
        return LocalServices.azurite().connectionString();
    }
}
