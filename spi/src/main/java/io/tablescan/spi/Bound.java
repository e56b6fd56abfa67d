package io.tablescan.spi;

import java.util.Objects;

/** A lower bound on a key: the key itself and above (inclusive), or strictly above it. */
public record Bound(String key, boolean inclusive) {
    public Bound {
        Objects.requireNonNull(key, "key");
    }

    public static Bound after(String key) {
        return new Bound(key, false);
    }

    public static Bound from(String key) {
        return new Bound(key, true);
    }

    /** True when {@code value} satisfies this bound. */
    public boolean admits(String value) {
        int c = value.compareTo(key);
        return inclusive ? c >= 0 : c > 0;
    }
}
