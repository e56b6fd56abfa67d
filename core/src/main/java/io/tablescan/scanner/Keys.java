package io.tablescan.scanner;

/**
 * Key arithmetic in the service's order (UTF-16 code units, as {@link String#compareTo}), keeping
 * surrogate pairs whole so every bound is a valid string.
 */
public final class Keys {
    private static final char MAX = '\uFFFF';

    private Keys() {}

    /**
     * The smallest valid string above every string that starts with {@code prefix}, or null when there is
     * none (the prefix is empty or all U+FFFF). Strip trailing U+FFFF, then increment the last character;
     * this replaces the reference's {@code prefix + U+FFFF} sentinel, which lost keys containing U+FFFF.
     */
    public static String successor(String prefix) {
        int end = prefix.length();
        while (end > 0 && prefix.charAt(end - 1) == MAX) {
            end--;
        }
        if (end == 0) {
            return null;
        }
        char last = prefix.charAt(end - 1);
        if (Character.isLowSurrogate(last) && end >= 2 && Character.isHighSurrogate(prefix.charAt(end - 2))) {
            int codePoint = Character.toCodePoint(prefix.charAt(end - 2), last);
            String head = prefix.substring(0, end - 2);
            // U+10FFFF is the last pair; in UTF-16 order the next string continues at U+E000.
            return codePoint == Character.MAX_CODE_POINT ? head + '\uE000' : head + Character.toString(codePoint + 1);
        }
        String head = prefix.substring(0, end - 1);
        if (last == '\uD7FF') {
            return head + Character.toString(Character.MIN_SUPPLEMENTARY_CODE_POINT);
        }
        return head + (char) (last + 1);
    }

    /** Longest common prefix of two strings, never ending inside a surrogate pair. */
    public static String commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return a.substring(0, snap(a, i));
    }

    /** The first {@code length} code units of {@code key}, extended by one unit to keep a surrogate pair whole. */
    public static String prefix(String key, int length) {
        if (length >= key.length()) {
            return key;
        }
        if (length > 0 && Character.isHighSurrogate(key.charAt(length - 1)) && Character.isLowSurrogate(key.charAt(length))) {
            return key.substring(0, length + 1);
        }
        return key.substring(0, length);
    }

    /** {@code key}'s prefix one character longer than {@code base} (which must be a prefix of key). */
    public static String childPrefix(String key, String base) {
        return key.length() == base.length() ? key : prefix(key, base.length() + 1);
    }

    /**
     * The longest prefix shared by every string s with lower &lt;= s &lt; upper (null bounds open): the longest
     * prefix q of lower whose successor is at or above upper.
     */
    public static String commonPrefixOfRange(String lower, String upper) {
        if (lower == null || upper == null) {
            return lower != null && isAllMax(lower) ? lower : "";
        }
        for (int len = lower.length(); len > 0; len--) {
            String q = prefix(lower, len);
            if (q.length() != len) {
                continue; // len cut a surrogate pair; the whole pair was tried already
            }
            String next = successor(q);
            if (next == null || next.compareTo(upper) >= 0) {
                return q;
            }
        }
        return "";
    }

    /** The smaller of two exclusive upper bounds, null meaning none. */
    public static String minUpper(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Doubles single quotes for an OData string literal. */
    public static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static boolean isAllMax(String s) {
        return s.chars().allMatch(c -> c == MAX);
    }

    private static int snap(String s, int end) {
        return end > 0 && end < s.length() && Character.isHighSurrogate(s.charAt(end - 1))
                && Character.isLowSurrogate(s.charAt(end)) ? end - 1 : end;
    }
}
