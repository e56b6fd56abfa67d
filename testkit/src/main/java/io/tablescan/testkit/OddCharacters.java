package io.tablescan.testkit;

/** Characters a scanner gets wrong easily: quotes, U+FFFE/U+FFFF, surrogate pairs (U+10000, U+10FFFF). */
public final class OddCharacters {
    public static final String[] UNITS = {"'", "''", "%", "~", "\uFFFE", "\uFFFF", "\uD800\uDC00", "\uDBFF\uDFFF",
        "\uE000", "\uFFFD", "a", "A", "b", "z", "0", "9", ".", " "};

    private OddCharacters() {}
}
