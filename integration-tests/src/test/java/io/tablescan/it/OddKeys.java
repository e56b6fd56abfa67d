package io.tablescan.it;

/** Keys the service accepts and a scanner gets wrong easily: 18 of them, so 324 rows as PK x RK. */
final class OddKeys {
    static final String[] KEYS = {"", "'", "''", "%", "~", "a'b", "\uFFFE", "a\uFFFF", "a\uFFFFb", "\uFFFF",
        "\uD800\uDC00", "\uDBFF\uDFFF", "\uE000", "A", "z", "a b", "+&=", "p".repeat(300)};

    private OddKeys() {}
}
