package io.tablescan.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeysTest {
    @Test
    void successorIsAboveEveryExtensionOfThePrefix() {
        assertThat(Keys.successor("D")).isEqualTo("E");
        assertThat(Keys.successor("D\uFFFF")).isEqualTo("E");
        assertThat(Keys.successor("\uFFFF\uFFFF")).isNull();
        assertThat(Keys.successor("")).isNull();
        assertThat(Keys.successor("a\uD7FF")).isEqualTo("a\uD800\uDC00");
        assertThat(Keys.successor("a\uD800\uDFFF")).isEqualTo("a\uD801\uDC00");
        assertThat(Keys.successor("a\uDBFF\uDFFF")).isEqualTo("a\uE000");
        for (String prefix : new String[] {"D", "D\uFFFF", "a\uD800\uDFFF", "x\uDBFF\uDFFF", "'"}) {
            for (String tail : new String[] {"", "\uFFFF", "\uFFFF\uFFFF", "\uDBFF\uDFFF", "z"}) {
                assertThat((prefix + tail).compareTo(Keys.successor(prefix))).isNegative();
            }
        }
    }

    @Test
    void prefixesNeverSplitASurrogatePair() {
        assertThat(Keys.commonPrefix("a\uD800\uDC00", "a\uD800\uDC01")).isEqualTo("a");
        assertThat(Keys.prefix("a\uD800\uDC00b", 2)).isEqualTo("a\uD800\uDC00");
        assertThat(Keys.childPrefix("a\uD800\uDC00b", "a")).isEqualTo("a\uD800\uDC00");
        assertThat(Keys.childPrefix("abc", "abc")).isEqualTo("abc");
    }

    @Test
    void commonPrefixOfARangeIsSharedByEveryStringInIt() {
        assertThat(Keys.commonPrefixOfRange("Xb", "Y")).isEqualTo("X");
        assertThat(Keys.commonPrefixOfRange("Xabc", "Xb")).isEqualTo("Xa");
        assertThat(Keys.commonPrefixOfRange(null, "Y")).isEmpty();
        assertThat(Keys.commonPrefixOfRange("a", null)).isEmpty();
    }

    @Test
    void literalsDoubleQuotes() {
        assertThat(Keys.literal("it's")).isEqualTo("'it''s'");
    }
}
