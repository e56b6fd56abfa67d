package io.tablescan.testkit;

import io.tablescan.azure.EdmCodec;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.TableStoreException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Evaluates an OData {@code $filter} the way the table service does, for the in-memory table: comparisons
 * (eq, ne, gt, ge, lt, le) of PartitionKey, RowKey or a property with a literal, combined with and, or, not
 * and parentheses. Strings compare by UTF-16 code unit; a comparison between different types is false.
 */
public final class ODataPredicate {
    private final List<String> tokens;
    private int at;

    private ODataPredicate(List<String> tokens) {
        this.tokens = tokens;
    }

    /** The predicate of a filter; null or blank matches every row. Throws a 400 for a malformed filter. */
    public static Predicate<Row> parse(String filter) {
        if (filter == null || filter.isBlank()) {
            return row -> true;
        }
        ODataPredicate parser = new ODataPredicate(tokenize(filter));
        Predicate<Row> predicate = parser.or();
        if (parser.at != parser.tokens.size()) {
            throw invalid("unexpected '" + parser.tokens.get(parser.at) + "'");
        }
        return predicate;
    }

    private Predicate<Row> or() {
        Predicate<Row> left = and();
        while (accept("or")) {
            left = left.or(and());
        }
        return left;
    }

    private Predicate<Row> and() {
        Predicate<Row> left = unary();
        while (accept("and")) {
            left = left.and(unary());
        }
        return left;
    }

    private Predicate<Row> unary() {
        if (accept("not")) {
            return unary().negate();
        }
        if (accept("(")) {
            Predicate<Row> inner = or();
            expect(")");
            return inner;
        }
        String name = next();
        String op = next();
        Literal literal = Literal.of(next());
        return switch (op) {
            case "eq" -> row -> compare(row, name, literal, c -> c == 0);
            case "ne" -> row -> compare(row, name, literal, c -> c != 0);
            case "gt" -> row -> compare(row, name, literal, c -> c > 0);
            case "ge" -> row -> compare(row, name, literal, c -> c >= 0);
            case "lt" -> row -> compare(row, name, literal, c -> c < 0);
            case "le" -> row -> compare(row, name, literal, c -> c <= 0);
            default -> throw invalid("unknown operator '" + op + "'");
        };
    }

    private static boolean compare(Row row, String name, Literal literal, java.util.function.IntPredicate test) {
        Object value;
        EdmType type;
        if (name.equals("PartitionKey") || name.equals("RowKey")) {
            value = name.equals("PartitionKey") ? row.partitionKey() : row.rowKey();
            type = EdmType.STRING;
        } else {
            RowProperty p = row.properties().stream().filter(q -> q.name().equals(name)).findFirst().orElse(null);
            if (p == null || p.value() == null) {
                return false;
            }
            value = p.value();
            type = p.type();
        }
        if (type != literal.type()) {
            return false;
        }
        return test.test(order(value, literal.value()));
    }

    @SuppressWarnings("unchecked")
    private static int order(Object value, Object literal) {
        if (value instanceof byte[] a && literal instanceof byte[] b) {
            return Arrays.compare(a, b);
        }
        if (value instanceof Double a && literal instanceof Double b) {
            return Double.compare(a, b);
        }
        return ((Comparable<Object>) value).compareTo(literal);
    }

    /** A typed literal: 'text', 42, 42L, 4.2, true, datetime'...', guid'...', X'0a0b'. */
    record Literal(EdmType type, Object value) {
        static Literal of(String token) {
            if (token.startsWith("'")) {
                return new Literal(EdmType.STRING, unquote(token));
            }
            if (token.startsWith("datetime'")) {
                return new Literal(EdmType.DATETIME, EdmCodec.toTicks(
                        java.time.OffsetDateTime.parse(unquote(token.substring(8))).toInstant()));
            }
            if (token.startsWith("guid'")) {
                return new Literal(EdmType.GUID, unquote(token.substring(4)).toLowerCase(java.util.Locale.ROOT));
            }
            if (token.startsWith("X'") || token.startsWith("binary'")) {
                String hex = unquote(token.substring(token.indexOf('\'')));
                return new Literal(EdmType.BINARY, HexFormat.of().parseHex(hex));
            }
            if (token.equals("true") || token.equals("false")) {
                return new Literal(EdmType.BOOLEAN, Boolean.valueOf(token));
            }
            try {
                if (token.endsWith("L")) {
                    return new Literal(EdmType.INT64, Long.valueOf(token.substring(0, token.length() - 1)));
                }
                if (token.matches("-?\\d+")) {
                    return new Literal(EdmType.INT32, Integer.valueOf(token));
                }
                return new Literal(EdmType.DOUBLE, Double.valueOf(token));
            } catch (NumberFormatException e) {
                throw invalid("not a literal: " + token);
            }
        }

        private static String unquote(String quoted) {
            if (quoted.length() < 2 || !quoted.endsWith("'")) {
                throw invalid("unterminated string literal");
            }
            return quoted.substring(1, quoted.length() - 1).replace("''", "'");
        }
    }

    static List<String> tokenize(String filter) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < filter.length()) {
            char c = filter.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(' || c == ')') {
                tokens.add(String.valueOf(c));
                i++;
            } else {
                int start = i;
                while (i < filter.length() && filter.charAt(i) != '\'' && !Character.isWhitespace(filter.charAt(i))
                        && filter.charAt(i) != '(' && filter.charAt(i) != ')') {
                    i++;
                }
                if (i < filter.length() && filter.charAt(i) == '\'') {
                    i = endOfString(filter, i);
                }
                tokens.add(filter.substring(start, i));
            }
        }
        return tokens;
    }

    /** Index after the string literal opening at {@code open}; '' inside it is an escaped quote. */
    private static int endOfString(String filter, int open) {
        int i = open + 1;
        while (i < filter.length()) {
            if (filter.charAt(i) == '\'') {
                if (i + 1 < filter.length() && filter.charAt(i + 1) == '\'') {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw invalid("unterminated string literal");
    }

    private boolean accept(String token) {
        if (at < tokens.size() && tokens.get(at).equals(token)) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!accept(token)) {
            throw invalid("expected '" + token + "'");
        }
    }

    private String next() {
        if (at >= tokens.size()) {
            throw invalid("unexpected end of filter");
        }
        return Objects.requireNonNull(tokens.get(at++));
    }

    private static TableStoreException invalid(String why) {
        return new TableStoreException("HTTP 400 InvalidInput: bad $filter: " + why, 400, false, null);
    }
}
