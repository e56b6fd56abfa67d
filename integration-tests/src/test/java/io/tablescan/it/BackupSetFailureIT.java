package io.tablescan.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablescan.backup.Manifest;
import io.tablescan.backup.SetIndex;
import io.tablescan.cli.Cli;
import io.tablescan.cli.SampleTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One table of a backup set that cannot be read (the service refuses its requests, as for a key that may not read
 * it) fails the set clearly: exit 1, the set marked incomplete with that table's reason, and the other tables'
 * exports kept, complete, in the set.
 */
class BackupSetFailureIT {
    @Test
    void oneFailedTableLeavesAnIncompleteSetWithTheOthersKept(@TempDir Path sets) throws Exception {
        var store = LocalServices.store();
        for (String table : List.of("bfailalpha", "bfailbeta", "bfailgamma")) {
            SampleTable.write(store, table, SampleTable.rows(300), 8);
        }
        try (CountingProxy proxy = CountingProxy.start(LocalServices.azurite())) {
            proxy.refuse("bfailbeta", 1); // its check passes, its scan is refused
            Cli.Run backup = Cli.run("backup", "--source-connection-string", proxy.connectionString(), "--tables",
                    "bfailalpha,bfailbeta,bfailgamma", "--to", sets.toString());
            System.out.print(backup.out() + backup.err());
            assertThat(backup.exitCode()).as(backup.out() + backup.err()).isEqualTo(1);
            assertThat(backup.out() + backup.err()).contains("bfailbeta: FAILED: ").contains("403")
                    .doesNotContain("\tat io.tablescan");

            Path set;
            try (Stream<Path> dirs = Files.list(sets)) {
                set = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
            }
            SetIndex index = SetIndex.parse(set.toString(), Files.readAllBytes(set.resolve(SetIndex.NAME)));
            assertThat(index.complete()).isFalse();
            assertThat(index.tables()).extracting(SetIndex.Table::table)
                    .containsExactlyInAnyOrder("bfailalpha", "bfailbeta", "bfailgamma");
            for (SetIndex.Table table : index.tables()) {
                if (table.table().equals("bfailbeta")) {
                    assertThat(table.ok()).isFalse();
                    assertThat(table.error()).isNotBlank();
                } else { // kept: a finished export of all its rows
                    assertThat(table.ok()).as(table.table()).isTrue();
                    Manifest manifest = Manifest.parse(Files.readAllBytes(set.resolve(table.table())
                            .resolve(Manifest.NAME)));
                    assertThat(manifest.totalRows()).isEqualTo(300);
                }
            }

            Cli.Run list = Cli.run("backups", "list", "--from", sets.toString());
            assertThat(list.exitCode()).as(list.out() + list.err()).isZero();
            assertThat(list.out()).contains("NOT complete (1 failed)");
            Cli.Run show = Cli.run("backups", "show", index.id(), "--from", sets.toString());
            assertThat(show.out()).containsPattern("bfailbeta\\s+FAILED: ");
        }
    }
}
