package io.tablescan.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.spi.Continuation;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.Page;
import io.tablescan.spi.QueryOptions;
import io.tablescan.spi.Row;
import io.tablescan.spi.ScanQuery;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A worker never queries an account whose pages come in no key order; it may still write to it. */
class KeyOrderRequiredTest {
    /** An account like Cosmos DB for Table's: answers every query (with nothing), in no key order. */
    private static final class Unordered implements TableStore {
        final List<String> calls = new ArrayList<>();

        @Override
        public boolean rowsInKeyOrder() {
            return false;
        }

        @Override
        public Page query(String table, ScanQuery query, QueryOptions options, Continuation from) {
            calls.add("query");
            return new Page(List.of(), null);
        }

        @Override
        public void upsert(String table, String partitionKey, List<Row> rows) {
            calls.add("upsert");
        }

        @Override
        public void createTableIfNotExists(String table) {
            calls.add("create");
        }

        @Override
        public boolean tableExists(String table) {
            calls.add("exists");
            return true;
        }
    }

    @Test
    void itsQueriesFailPermanentlyWithTheReasonAndItsWritesPass() {
        Unordered cosmos = new Unordered();
        TableStore shared = TableStores.shared(cosmos, "cosmos", FaultInjectingTableStore.Faults.NONE);
        assertThatThrownBy(() -> shared.query("T", KeyRange.ALL, new QueryOptions(1000, null, null), null))
                .isInstanceOfSatisfying(TableStoreException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining("account cosmos is an Azure Cosmos DB for Table account")
                .hasMessageContaining("no key order");
        shared.upsert("T", "p", List.of(new Row("p", "r", List.of())));
        assertThat(cosmos.calls).containsExactly("upsert"); // the query never reached it
    }
}
