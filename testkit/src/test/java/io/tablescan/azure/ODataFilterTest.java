package io.tablescan.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablescan.scanner.Keys;
import io.tablescan.spi.Bound;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.PartitionRange;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ScanQuery;
import io.tablescan.testkit.ODataPredicate;
import io.tablescan.testkit.OddCharacters;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The $filter of each scan query: its text, and its meaning as the in-memory service's OData evaluator reads
 * it, which must be exactly the query's own bounds.
 */
class ODataFilterTest {
    static final Pattern COMPARISON = Pattern.compile(" (eq|ne|gt|ge|lt|le) ");

    static Row row(String pk, String rk, RowProperty... properties) {
        return new Row(pk, rk, List.of(properties));
    }

    static Predicate<Row> meaning(ScanQuery query, String rowFilter) {
        return ODataPredicate.parse(ODataFilter.of(query, rowFilter));
    }

    /** Keys a filter gets wrong easily: empty, quotes, U+FFFF, surrogate pairs, and pairs of them. */
    static List<String> oddKeys() {
        List<String> keys = new ArrayList<>(List.of("", "O'Brien"));
        for (String a : OddCharacters.UNITS) {
            keys.add(a);
            for (String b : new String[] {"'", "\uFFFF", "\uD800\uDC00", "a"}) {
                keys.add(a + b);
            }
        }
        return keys;
    }

    static int comparisons(String filter) {
        Matcher m = COMPARISON.matcher(filter);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void theWholeTableNeedsNoFilter() {
        assertThat(ODataFilter.of(KeyRange.ALL, null)).isNull();
        assertThat(ODataFilter.of(new KeyRange(Bound.from(""), null), null)).as("every key is at or above ''").isNull();
    }

    @Test
    void keyRangesUseGeGtAndLt() {
        assertThat(ODataFilter.of(new KeyRange(Bound.from("a"), "b"), null))
                .isEqualTo("PartitionKey ge 'a' and PartitionKey lt 'b'");
        assertThat(ODataFilter.of(new KeyRange(Bound.after("a"), "b"), null))
                .isEqualTo("PartitionKey gt 'a' and PartitionKey lt 'b'");
        assertThat(ODataFilter.of(new KeyRange(Bound.after("a"), null), null)).isEqualTo("PartitionKey gt 'a'");
        assertThat(ODataFilter.of(new KeyRange(null, "m"), null)).isEqualTo("PartitionKey lt 'm'");
        assertThat(ODataFilter.of(new KeyRange(Bound.from(""), "m"), null)).isEqualTo("PartitionKey lt 'm'");
    }

    @Test
    void anExclusiveEmptyLowerBoundLeavesOutOnlyTheEmptyPartitionKey() {
        Predicate<Row> filter = meaning(new KeyRange(Bound.after(""), null), null);

        assertThat(filter.test(row("", "r"))).isFalse();
        assertThat(filter.test(row("\u0000", "r"))).isTrue();
        assertThat(filter.test(row("a", ""))).isTrue();
    }

    @Test
    void aRowKeyBoundNarrowsOnlyTheFirstPartition() {
        KeyRange range = new KeyRange(Bound.from("p"), Bound.after("r5"), "q");

        assertThat(ODataFilter.of(range, null)).isEqualTo(
                "((PartitionKey eq 'p' and RowKey gt 'r5') or PartitionKey gt 'p') and PartitionKey lt 'q'");
        Predicate<Row> filter = meaning(range, null);
        assertThat(filter.test(row("p", "r5"))).isFalse();
        assertThat(filter.test(row("p", "r6"))).isTrue();
        assertThat(filter.test(row("pa", "a"))).as("later partitions whole").isTrue();
        assertThat(filter.test(row("q", "z"))).isFalse();
    }

    @Test
    void partitionQueriesSelectOnePartitionFromARowKey() {
        assertThat(ODataFilter.of(new PartitionRange("p", null), null)).isEqualTo("PartitionKey eq 'p'");
        assertThat(ODataFilter.of(new PartitionRange("p", Bound.after("r")), null))
                .isEqualTo("PartitionKey eq 'p' and RowKey gt 'r'");
        assertThat(ODataFilter.of(new PartitionRange("p", Bound.from("r")), null))
                .isEqualTo("PartitionKey eq 'p' and RowKey ge 'r'");
        assertThat(ODataFilter.of(new PartitionRange("", null), null)).isEqualTo("PartitionKey eq ''");
    }

    @Test
    void singleQuotesAreDoubledAndOtherCharactersKept() {
        assertThat(ODataFilter.of(new PartitionRange("O'Brien", Bound.after("''")), null))
                .isEqualTo("PartitionKey eq 'O''Brien' and RowKey gt ''''''");
        String odd = "a\uD83D\uDE00\uFFFF";
        assertThat(ODataFilter.of(new KeyRange(Bound.from(odd), Keys.successor(odd)), null))
                .isEqualTo("PartitionKey ge '" + odd + "' and PartitionKey lt 'a\uD83D\uDE01'");
    }

    @Test
    void everyKeyRangeMeansExactlyItsBounds() {
        List<String> keys = oddKeys();
        List<Row> rows = new ArrayList<>();
        for (String pk : keys) {
            rows.add(row(pk, ""));
            rows.add(row(pk, "'"));
            rows.add(row(pk, "r\uFFFF"));
        }
        List<String> wrong = new ArrayList<>();
        for (String lower : keys) {
            for (String upper : new String[] {null, Keys.successor(lower), "a", "\uFFFF", "\uD800\uDC00"}) {
                for (Bound bound : new Bound[] {Bound.from(lower), Bound.after(lower)}) {
                    List<KeyRange> ranges = new ArrayList<>(List.of(new KeyRange(bound, upper)));
                    if (bound.inclusive()) {
                        ranges.add(new KeyRange(bound, Bound.after("'"), upper));
                        ranges.add(new KeyRange(bound, Bound.from("r\uFFFF"), upper));
                    }
                    for (KeyRange range : ranges) {
                        Predicate<Row> filter = meaning(range, null);
                        for (Row r : rows) {
                            if (filter.test(r) != range.contains(r.partitionKey(), r.rowKey())) {
                                wrong.add(range + " on " + r);
                            }
                        }
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyPartitionRangeMeansExactlyItsPartitionFromItsRowKey() {
        List<String> keys = oddKeys();
        List<String> wrong = new ArrayList<>();
        for (String pk : keys) {
            for (PartitionRange range : new PartitionRange[] {new PartitionRange(pk, null),
                    new PartitionRange(pk, Bound.after(pk)), new PartitionRange(pk, Bound.from("'"))}) {
                Predicate<Row> filter = meaning(range, null);
                for (String other : keys) {
                    for (String rk : new String[] {"", "'", other}) {
                        if (filter.test(row(other, rk)) != range.contains(other, rk)) {
                            wrong.add(range + " on (" + other + ", " + rk + ")");
                        }
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void aRowFilterIsAndedInParentheses() {
        KeyRange range = new KeyRange(Bound.from("a"), "b");
        String rowFilter = "Size eq 1 or Size eq 2";

        assertThat(ODataFilter.of(range, rowFilter))
                .isEqualTo("PartitionKey ge 'a' and PartitionKey lt 'b' and (Size eq 1 or Size eq 2)");
        assertThat(ODataFilter.of(KeyRange.ALL, rowFilter)).isEqualTo("(Size eq 1 or Size eq 2)");
        assertThat(ODataFilter.of(range, "  ")).as("a blank row filter adds nothing")
                .isEqualTo("PartitionKey ge 'a' and PartitionKey lt 'b'");
        Predicate<Row> filter = meaning(range, rowFilter);
        RowProperty two = new RowProperty("Size", EdmType.INT32, 2);
        assertThat(filter.test(row("a", "r", two))).isTrue();
        assertThat(filter.test(row("a", "r", new RowProperty("Size", EdmType.INT32, 3)))).isFalse();
        assertThat(filter.test(row("c", "r", two))).as("the row filter's 'or' stays inside the range").isFalse();
    }

    @Test
    void keyBoundsUseAtMostFourOfTheServicesFifteenComparisons() {
        List<ScanQuery> widest = List.of(new KeyRange(Bound.from("a"), Bound.after("r"), "b"),
                new KeyRange(Bound.after("a"), "b"), new PartitionRange("p", Bound.after("r")));
        for (ScanQuery query : widest) {
            assertThat(comparisons(ODataFilter.of(query, null))).as("%s", query).isLessThanOrEqualTo(4);
        }
        String eleven = String.join(" or ", java.util.Collections.nCopies(11, "Size eq 1"));
        assertThat(comparisons(ODataFilter.of(widest.get(0), eleven))).isEqualTo(15);
    }

    @Test
    void aRowFilterCannotEscapeItsParentheses() {
        KeyRange range = new KeyRange(Bound.from("a"), "b");
        assertThatThrownBy(() -> ODataFilter.of(range, "Size eq 1) or (Size eq 2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the row filter closes a parenthesis it did not open");
        assertThat(ODataFilter.problem("(Size eq 1")).isEqualTo("the row filter leaves a parenthesis open");
        assertThat(ODataFilter.problem("Name eq 'it''s")).isEqualTo("the row filter has a string literal without its closing quote");
    }

    @Test
    void parenthesesAndOperatorsInsideStringsAreText() {
        String filter = "Name eq ')' or (Name eq 'a) or (b' and Note eq 'it''s (eq gt lt)')";
        assertThat(ODataFilter.problem(filter)).isNull();
        KeyRange range = new KeyRange(Bound.from("a"), "b");
        assertThat(ODataPredicate.parse(ODataFilter.of(range, filter))
                .test(row("z", "r", new RowProperty("Name", EdmType.STRING, ")")))).as("outside [a, b)").isFalse();
        assertThat(ODataPredicate.parse(ODataFilter.of(range, filter))
                .test(row("a", "r", new RowProperty("Name", EdmType.STRING, ")")))).isTrue();
    }

    @Test
    void aRowFilterLeavesRoomForTheKeyBounds() {
        String eleven = String.join(" or ", java.util.Collections.nCopies(11, "Size eq 1"));
        String twelve = eleven + " or Size ge 7";
        assertThat(ODataFilter.problem(eleven)).isNull();
        assertThat(ODataFilter.problem(twelve)).isEqualTo(
                "the row filter has 12 comparisons; the service allows 15 in a query and the key bounds take up to 4");
    }
}
