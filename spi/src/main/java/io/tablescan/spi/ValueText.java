package io.tablescan.spi;

import java.time.LocalDate;
import java.time.OffsetDateTime;

/**
 * The service's text of DateTime and Int64 values. A value that came from the service keeps its text when that
 * text is not the canonical form ({@link RowProperty#text()}), so any other client reads a copy as it reads the
 * source; these rules say which texts are canonical and read a DateTime's text into ticks.
 */
public final class ValueText {
    private static final long TICKS_PER_SECOND = 10_000_000L;

    private ValueText() {}

    /** True for the canonical DateTime form, {@code 2024-01-02T03:04:05.1234567Z}: 7 fraction digits and Z. */
    public static boolean canonicalDateTime(String text) {
        if (text.length() != 28 || text.charAt(19) != '.' || text.charAt(27) != 'Z') {
            return false;
        }
        for (int i = 0; i < 27; i++) {
            char c = text.charAt(i);
            boolean ok = switch (i) {
                case 4, 7 -> c == '-';
                case 10 -> c == 'T';
                case 13, 16 -> c == ':';
                case 19 -> true;
                default -> c >= '0' && c <= '9';
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** True for the canonical Int64 form, as {@link Long#toString(long)} writes it: no sign but '-', no leading 0. */
    public static boolean canonicalInt64(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        if (text.length() == start || text.length() - start > 19) {
            return false;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9' || (i == start && c == '0' && (text.length() > start + 1 || start == 1))) {
                return false;
            }
        }
        return true;
    }

    /**
     * 100 ns ticks since the Unix epoch from a DateTime's text, {@code 2024-01-02T03:04:05.1234567Z} or with fewer
     * or more fraction digits (digits beyond the 7th are dropped, as ticks cannot hold them); any other ISO form
     * with an offset goes the long way.
     *
     * @throws java.time.format.DateTimeParseException when it is not a date and time
     */
    public static long ticks(String text) {
        int n = text.length();
        if (n >= 20 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T'
                && text.charAt(13) == ':' && text.charAt(16) == ':' && text.charAt(n - 1) == 'Z'
                && (n == 20 || text.charAt(19) == '.' && n > 21)) {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 7);
            int day = digits(text, 8, 10);
            int hour = digits(text, 11, 13);
            int minute = digits(text, 14, 16);
            int second = digits(text, 17, 19);
            long fraction = 0;
            int scale = 0;
            for (int i = 20; i < n - 1 && scale >= 0; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    scale = -1;
                } else if (scale < 7) {
                    fraction = fraction * 10 + (c - '0');
                    scale++;
                }
            }
            if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour < 24
                    && minute >= 0 && minute < 60 && second >= 0 && second < 60 && scale >= 0) {
                for (; scale < 7; scale++) {
                    fraction *= 10;
                }
                long days = LocalDate.of(year, month, day).toEpochDay();
                return (days * 86_400 + hour * 3_600L + minute * 60L + second) * TICKS_PER_SECOND + fraction;
            }
        }
        var instant = OffsetDateTime.parse(text).toInstant();
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), TICKS_PER_SECOND), instant.getNano() / 100);
    }

    /** The decimal number in text[from, to), or -1 when it is not all digits. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
