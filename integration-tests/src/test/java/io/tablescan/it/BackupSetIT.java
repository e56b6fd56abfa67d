package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tablescan.backup.Manifest;
import io.tablescan.backup.SetIndex;
import io.tablescan.cli.Cli;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backup sets on Azurite: a full set of three tables, then two incremental sets with inserts, updates and deletes
 * between them; each set restored (under a prefix) equals its tables as Microsoft's JavaScript SDK read them right
 * after that set's backup. The catalog lists and shows them, a restore into tables holding rows is refused, and
 * retention never deletes the base of a kept incremental set; verify --from-set compares a set's view of each
 * table with the live table. One set goes to a Blob container and back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BackupSetIT {
    private static final List<String> TABLES = List.of("bsetalpha", "bsetbeta", "bsetgamma");
    private static final Pattern SET_ID = Pattern.compile("backup set (\\S+) complete");
    @TempDir
    static Path temp;
    private static Path sets;
    private static final List<String> ids = new ArrayList<>();
    private static final List<Map<String, List<String>>> dumps = new ArrayList<>();

    @BeforeAll
    static void threeTables() throws Exception {
        TableStore store = LocalServices.store();
        for (String table : List.of("bsetbeta", "bsetgamma")) {
            store.createTableIfNotExists(table);
            for (int p = 0; p < 4; p++) {
                List<Row> rows = new ArrayList<>();
                for (int r = 0; r < 30; r++) {
                    rows.add(row("p" + p, "r" + r, "v0"));
                }
                store.upsert(table, "p" + p, rows);
            }
        }
        assertThat(FidelityIT.client("fill", "bsetalpha")).contains("filled bsetalpha"); // every type, odd keys
        sets = temp.resolve("sets");
    }

    @Test
    @Order(1)
    void aFullSetThenIncrementalsRestoreEachAsItsBackupSawTheTables() throws Exception {
        backUp("full", 67 + 120 + 120);

        TableStore store = LocalServices.store(); // between sets 0 and 1: 5 inserts, 3 updates, 4 deletes
        store.upsert("bsetbeta", "p9", List.of(row("p9", "a", "new"), row("p9", "b", "new"), row("p9", "c", "new"),
                row("p9", "d", "new"), row("p9", "e", "new")));
        store.upsert("bsetbeta", "p1", List.of(row("p1", "r1", "v1"), row("p1", "r2", "v1"), row("p1", "r3", "v1")));
        for (String rk : List.of("r0", "r1", "r2", "r3")) {
            assertThat(store.delete("bsetgamma", "p2", rk)).isTrue();
        }
        Cli.Run incremental = backUp("incremental", 8);
        assertThat(incremental.out()).contains("bsetalpha: 0 changed rows (of 67)")
                .contains("bsetbeta: 8 changed rows (of 125)").contains("bsetgamma: 0 changed rows (of 116)");
        // "changed" since when: the base's start less the overlap, as the set's index says
        SetIndex index = SetIndex.parse("set", Files.readAllBytes(sets.resolve(ids.get(1)).resolve(SetIndex.NAME)));
        String since = java.time.Instant.parse(index.tables().stream().filter(t -> t.table().equals("bsetbeta"))
                .findFirst().orElseThrow().since()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        assertThat(incremental.out()).contains("bsetbeta: 8 changed rows (of 125) since " + since + ", ");
        // one scan of each table: its changes were found in its keys export (keys and Timestamps), then read by key
        Manifest keys = manifest(ids.get(1), "bsetbeta.keys");
        assertThat(keys.select()).containsExactly("RowKey", "Timestamp");
        assertThat(manifest(ids.get(1), "bsetbeta").scanId()).isEqualTo(keys.scanId());

        // between sets 1 and 2: a row inserted in set 1 and an old one deleted, updates, a deleted row back
        assertThat(store.delete("bsetbeta", "p9", "a")).isTrue();
        assertThat(store.delete("bsetbeta", "p0", "r7")).isTrue();
        store.upsert("bsetgamma", "p2", List.of(row("p2", "r0", "back")));
        store.upsert("bsetgamma", "p3", List.of(row("p3", "r5", "v2"), row("p3", "r6", "v2")));
        backUp("incremental", 3);

        for (int set = 0; set < 3; set++) {
            String prefix = "r" + set;
            List<String> which = switch (set) {
                case 0 -> List.of("--set", ids.get(0));
                case 1 -> List.of("--at", index(1).startTime());
                default -> List.of("--latest");
            };
            List<String> args = new ArrayList<>(List.of("restore", "--from", sets.toString(),
                    "--dest-connection-string", cs(), "--table-prefix", prefix));
            args.addAll(which);
            Cli.Run restore = Cli.run(args.toArray(String[]::new));
            assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
            long total = 0;
            for (String table : TABLES) {
                List<String> restored = dump(prefix + table);
                assertThat(restored).as("set " + set + ", " + table).isEqualTo(dumps.get(set).get(table));
                // the rows the JavaScript SDK reads from the restored table, not the writes summed over the chain
                assertThat(restore.out()).as(restore.out()).contains(String.format("  %s: restored %,d rows into %s",
                        table, restored.size(), prefix + table));
                total += restored.size();
            }
            assertThat(restore.out()).contains(String.format("restored 3 tables of backup set %s: %,d rows",
                    ids.get(set), total));
        }
        assertThat(dumps.get(2).get("bsetbeta")).hasSize(123);
        assertThat(dumps.get(2).get("bsetgamma")).hasSize(117);
    }

    @Test
    @Order(2)
    void theCatalogListsAndShowsTheSetsFromTheirIndexes() {
        Cli.Run list = Cli.run("backups", "list", "--from", sets.toString());
        assertThat(list.exitCode()).as(list.err()).isZero();
        assertThat(list.out()).contains(ids.get(0)).contains(ids.get(1)).contains(ids.get(2)).contains("3 sets in");
        assertThat(list.out().lines().filter(l -> l.contains("incremental") && l.contains("complete")).count())
                .isEqualTo(2);
        Cli.Run show = Cli.run("backups", "show", ids.get(1), "--from", sets.toString());
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("incremental on " + ids.get(0)).contains("complete").contains("bsetbeta")
                .contains("(125 rows in all, since");
        Cli.assertOneLine(Cli.run("backups", "show", "20000101T000000Z-0000", "--from", sets.toString()), 4,
                "no backup set 20000101T000000Z-0000");
    }

    @Test
    @Order(2)
    void verifyFromSetComparesEachTableAsTheSetRestoresItWithTheLiveTable() {
        Cli.Run latest = Cli.run("verify", "--from-set", ids.get(2), "--from", sets.toString(),
                "--source-connection-string", cs());
        assertThat(latest.exitCode()).as(latest.out() + latest.err()).isZero();
        assertThat(latest.out()).contains("backup set " + ids.get(2) + ": 3 of 3 tables equal to the live tables");

        Cli.Run first = Cli.run("verify", "--from-set", ids.get(0), "--from", sets.toString(),
                "--source-connection-string", cs(), "--source-table", "bsetbeta");
        assertThat(first.exitCode()).as(first.out() + first.err()).isEqualTo(7); // changed since set 0
        assertThat(first.out()).contains("missing:       4").contains("different:     3").contains("extra:         1");
    }

    @Test
    @Order(2)
    void verifyFromSetCountsATableNoLongerInTheAccountAsADifferenceAndGoesOn() throws Exception {
        Path place = temp.resolve("gone"); // set 0 with a table that the account no longer holds, listed first
        copy(sets.resolve(ids.get(0)), place.resolve(ids.get(0)));
        copy(place.resolve(ids.get(0)).resolve("bsetalpha"), place.resolve(ids.get(0)).resolve("bsetgone"));
        SetIndex index = index(0);
        List<SetIndex.Table> tables = new ArrayList<>();
        SetIndex.Table alpha = index.table("bsetalpha");
        tables.add(new SetIndex.Table("bsetgone", alpha.rows(), alpha.bytes(), alpha.files(), alpha.manifestSha256(),
                null, null, null));
        tables.addAll(index.tables());
        Files.write(place.resolve(ids.get(0)).resolve(SetIndex.NAME), new SetIndex(index.formatVersion(), index.id(),
                index.kind(), null, index.startTime(), index.endTime(), index.sourceAccount(), index.tablescanVersion(),
                true, tables).toJson());

        Cli.Run verify = Cli.run("verify", "--from-set", ids.get(0), "--from", place.toString(),
                "--source-connection-string", cs());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isEqualTo(7);
        assertThat(verify.out()).contains("the live table bsetgone does not exist: all 67 rows of the set are "
                + "missing from it").contains("table bsetgamma of backup set")
                .contains("backup set " + ids.get(0) + ": 1 of 4 tables equal to the live tables"); // bsetalpha
    }

    @Test
    @Order(2)
    void aDamagedSetIsNamedAndLeftOutAndAMissingOrCutFileNamesItsSetAndTable() throws Exception {
        Path place = temp.resolve("damaged"); // sets 0, 1 and 2 (2 builds on 1, 1 on 0)
        copy(sets, place);
        Files.write(place.resolve(ids.get(2)).resolve(SetIndex.NAME), "{\"formatVersion\": 1, \"id\":".getBytes());

        Cli.Run list = Cli.run("backups", "list", "--from", place.toString());
        assertThat(list.exitCode()).as(list.out() + list.err()).isZero();
        assertThat(list.out()).containsPattern(ids.get(0) + ".*complete").containsPattern(ids.get(1) + ".*complete")
                .containsPattern(ids.get(2) + ".*DAMAGED \\(its set.json cannot be read\\)").contains("3 sets in");
        assertThat(list.err()).contains("warning: backup set " + ids.get(2) + " is damaged and left out: ")
                .contains("not a backup set's index");
        Cli.Run latest = Cli.run("restore", "--from", place.toString(), "--latest", "--dest-connection-string", cs(),
                "--table-prefix", "rd", "--tables", "bsetbeta");
        assertThat(latest.exitCode()).as(latest.out() + latest.err()).isZero();
        assertThat(latest.out()).contains("restored 1 table of backup set " + ids.get(1));
        assertThat(latest.err()).contains("backup set " + ids.get(2) + " is damaged");
        assertThat(dump("rdbsetbeta")).isEqualTo(dumps.get(1).get("bsetbeta"));
        Cli.Run prune = Cli.run("backups", "prune", "--from", place.toString(), "--keep-last", "1");
        assertThat(prune.exitCode()).as(prune.out() + prune.err()).isZero();
        assertThat(prune.out()).contains("kept " + ids.get(2) + ": damaged, never pruned").contains("0 sets deleted");

        // a file the index promises is missing: the set is damaged (exit 1), not unknown (4); named by set and table
        Files.delete(place.resolve(ids.get(1)).resolve("bsetbeta").resolve(Manifest.NAME));
        Cli.assertOneLine(Cli.run("restore", "--from", place.toString(), "--set", ids.get(1), "--tables", "bsetbeta",
                "--dest-connection-string", cs(), "--table-prefix", "rx"), 1, "backup set " + ids.get(1)
                + ", table bsetbeta: no manifest.json in ");
        delete(place.resolve(ids.get(1)).resolve("bsetgamma.keys"));
        Cli.Run noKeys = Cli.run("restore", "--from", place.toString(), "--set", ids.get(1), "--tables", "bsetgamma",
                "--dest-connection-string", cs(), "--table-prefix", "rx");
        Cli.assertOneLine(noKeys, 1, "backup set " + ids.get(1) + ", key list of table bsetgamma: no manifest.json");
        assertThat(noKeys.err()).contains("nothing was written");
        Cli.Run verify = Cli.run("verify", "--from-set", ids.get(1), "--from", place.toString(),
                "--source-connection-string", cs()); // bsetbeta's manifest and bsetgamma's key list are gone
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isEqualTo(1);
        assertThat(verify.out()).contains("  NOT compared: backup set " + ids.get(1) + ", table bsetbeta: no "
                + "manifest.json").contains("  NOT compared: backup set " + ids.get(1) + ", key list of table "
                + "bsetgamma: no manifest.json").contains("backup set " + ids.get(1) + ": 1 of 3 tables equal");
        Path part;
        try (var files = Files.list(place.resolve(ids.get(0)).resolve("bsetalpha"))) {
            part = files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        byte[] data = Files.readAllBytes(part);
        Files.write(part, java.util.Arrays.copyOf(data, data.length / 2));
        Cli.assertOneLine(Cli.run("restore", "--from", place.toString(), "--set", ids.get(0), "--tables", "bsetalpha",
                "--dest-connection-string", cs(), "--table-prefix", "rx"), 1, "backup set " + ids.get(0)
                + ", table bsetalpha: " + part.getFileName() + " is not valid: ");
        assertThat(LocalServices.store().tableExists("rxbsetalpha")).as("nothing was written").isFalse();
    }

    @Test
    @Order(3)
    void aRestoreIntoTablesThatHoldRowsIsRefusedAndWritesNothing() throws Exception {
        List<String> before = dump("r0bsetbeta");
        Cli.Run refused = Cli.run("restore", "--from", sets.toString(), "--latest", "--dest-connection-string", cs(),
                "--table-prefix", "r0", "--tables", "bsetbeta");
        Cli.assertOneLine(refused, 2, "restore refused: r0bsetbeta holds rows");
        assertThat(dump("r0bsetbeta")).isEqualTo(before);

        Cli.Run into = Cli.run("restore", "--from", sets.toString(), "--latest", "--dest-connection-string", cs(),
                "--table-prefix", "r0", "--tables", "bsetbeta", "--into-existing");
        assertThat(into.exitCode()).as(into.out() + into.err()).isZero();
        assertThat(dump("r0bsetbeta")).isEqualTo(dumps.get(2).get("bsetbeta"));
    }

    @Test
    @Order(4)
    void pruneNeverDeletesTheBaseOfAKeptIncremental() throws Exception {
        Cli.Run dry = Cli.run("backups", "prune", "--from", sets.toString(), "--keep-last", "1", "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("dry run: 0 sets would be deleted"); // the newest builds on both others

        backUp("full", 67 + 123 + 117);
        Cli.Run prune = Cli.run("backups", "prune", "--from", sets.toString(), "--keep-last", "1");
        assertThat(prune.exitCode()).as(prune.err()).isZero();
        assertThat(prune.out()).contains("deleted " + ids.get(0)).contains("3 sets deleted");
        try (var left = Files.list(sets)) {
            assertThat(left.map(p -> p.getFileName().toString()).toList()).containsExactly(ids.get(3));
        }
    }

    @Test
    @Order(5)
    void aSetInABlobContainerRestoresIdentical() throws Exception {
        String blob = AzuriteBlob.shared().connectionString();
        Cli.Run backup = Cli.run("backup", "--source-connection-string", cs(), "--tables", "bsetalpha,bsetgamma",
                "--to-container", "backupsets", "--to-prefix", "nightly", "--to-connection-string", blob);
        assertThat(backup.exitCode()).as(backup.out() + backup.err()).isZero();
        Cli.Run list = Cli.run("backups", "list", "--from-container", "backupsets", "--from-prefix", "nightly",
                "--from-connection-string", blob);
        assertThat(list.out()).contains("full").contains("1 set in");
        Cli.Run restore = Cli.run("restore", "--from-container", "backupsets", "--from-prefix", "nightly",
                "--from-connection-string", blob, "--latest", "--dest-connection-string", cs(), "--table-prefix", "rb");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(dump("rbbsetalpha")).isEqualTo(dumps.get(2).get("bsetalpha"));
        assertThat(dump("rbbsetgamma")).isEqualTo(dumps.get(2).get("bsetgamma"));
        assertThat(backup.out() + backup.err() + restore.out() + restore.err())
                .doesNotContain(LocalServices.azurite().accountKey());
    }

    @Test
    @Order(6)
    void withJsonBackupAndRestorePrintOnlyTheirResultOnStandardOutput() throws Exception {
        Path place = temp.resolve("json-sets");
        Cli.Run backup = Cli.run("backup", "--source-connection-string", cs(), "--tables", "bsetalpha,bsetbeta",
                "--to", place.toString(), "--json");
        assertThat(backup.exitCode()).as(backup.out() + backup.err()).isZero();
        assertThat(backup.printed()).as(backup.out()).hasSize(1); // the lines for people are on stderr
        JsonNode backedUp = new ObjectMapper().readTree(backup.printed().getFirst());
        String id = backedUp.get("setId").asText();
        assertThat(backup.err()).contains("backup set " + id + " complete: 2 tables");
        assertThat(backedUp.get("place").asText()).contains(place.toString());
        assertThat(backedUp.get("kind").asText()).isEqualTo("full");
        assertThat(backedUp.get("complete").asBoolean()).isTrue();
        assertThat(backedUp.get("failed")).isEmpty();
        assertThat(backedUp.get("exitCode").asInt()).isZero();
        long total = 0;
        Map<String, Long> backedUpRows = new HashMap<>();
        for (JsonNode table : backedUp.get("tables")) {
            backedUpRows.put(table.get("table").asText(), table.get("rows").asLong());
        }
        for (String table : List.of("bsetalpha", "bsetbeta")) { // the rows the JavaScript SDK reads from the table
            assertThat(backedUpRows.get(table)).as(table).isEqualTo(dump(table).size());
            total += backedUpRows.get(table);
        }
        assertThat(backedUpRows).hasSize(2);
        assertThat(backedUp.get("rows").asLong()).isEqualTo(total);

        Cli.Run restore = Cli.run("restore", "--from", place.toString(), "--set", id, "--dest-connection-string",
                cs(), "--table-prefix", "rj", "--json");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(restore.printed()).as(restore.out()).hasSize(1);
        JsonNode restored = new ObjectMapper().readTree(restore.printed().getFirst());
        assertThat(restore.err()).contains("restored 2 tables of backup set " + id);
        assertThat(restored.get("setId").asText()).isEqualTo(id);
        assertThat(restored.get("sets")).singleElement().extracting(JsonNode::asText).isEqualTo(id);
        assertThat(restored.get("complete").asBoolean()).isTrue();
        assertThat(restored.get("failed")).isEmpty();
        assertThat(restored.get("exitCode").asInt()).isZero();
        long restoredTotal = 0;
        for (JsonNode table : restored.get("tables")) {
            String dest = table.get("destTable").asText();
            assertThat(dest).isEqualTo("rj" + table.get("table").asText());
            assertThat(table.get("rows").asLong()).as(dest).isEqualTo(dump(dest).size())
                    .isEqualTo(backedUpRows.get(table.get("table").asText()));
            restoredTotal += table.get("rows").asLong();
        }
        assertThat(restored.get("tables")).hasSize(2);
        assertThat(restored.get("rows").asLong()).isEqualTo(restoredTotal).isEqualTo(total);

        // a restore that stops with an error: its one line on stderr, nothing on stdout
        Cli.Run unknown = Cli.run("restore", "--from", place.toString(), "--set", "20000101T000000Z-0000",
                "--dest-connection-string", cs(), "--table-prefix", "rk", "--json");
        assertThat(unknown.exitCode()).isEqualTo(4);
        assertThat(unknown.printed()).isEmpty();
        assertThat(unknown.err()).contains("no backup set 20000101T000000Z-0000");
    }

    /** A backup of the three tables; the tables as the other client reads them right after it. */
    private static Cli.Run backUp(String kind, long rows) throws Exception {
        List<String> args = new ArrayList<>(List.of("backup", "--source-connection-string", cs(), "--table-pattern",
                "bset*", "--to", sets.toString()));
        if (kind.equals("incremental")) {
            args.addAll(List.of("--incremental", "--overlap", "0s")); // Azurite's clock is this machine's
        }
        Cli.Run run = Cli.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        Matcher id = SET_ID.matcher(run.out());
        assertThat(id.find()).as(run.out()).isTrue();
        ids.add(id.group(1));
        assertThat(run.out()).contains("3 tables, " + String.format("%,d", rows) + " row");
        assertThat(index(ids.size() - 1).kind()).isEqualTo(kind);
        Map<String, List<String>> dump = new HashMap<>();
        for (String table : TABLES) {
            dump.put(table, dump(table));
        }
        dumps.add(dump);
        return run;
    }

    private static void copy(Path from, Path to) throws java.io.IOException {
        try (var all = Files.walk(from)) {
            for (Path path : all.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static void delete(Path folder) throws java.io.IOException {
        try (var all = Files.walk(folder)) {
            for (Path path : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static Manifest manifest(String set, String export) throws Exception {
        return Manifest.parse(Files.readAllBytes(sets.resolve(set).resolve(export).resolve(Manifest.NAME)));
    }

    private static SetIndex index(int set) throws Exception {
        return SetIndex.parse("set.json", Files.readAllBytes(sets.resolve(ids.get(set)).resolve(SetIndex.NAME)));
    }

    private static List<String> dump(String table) throws Exception {
        return FidelityIT.client("dump", table).lines().toList();
    }

    private static Row row(String pk, String rk, String value) {
        return new Row(pk, rk, List.of(new RowProperty("Value", EdmType.STRING, value),
                new RowProperty("Size", EdmType.INT64, (long) rk.length())));
    }

    private static String cs() {
        return LocalServices.azurite().connectionString();
    }
}
