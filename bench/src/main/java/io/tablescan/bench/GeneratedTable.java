package io.tablescan.bench;

import io.tablescan.cli.SampleTable;
import io.tablescan.spi.Row;
import io.tablescan.testkit.InMemoryTableStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;

/**
 * A package-catalog-like table of n rows computed from their position, so that millions of rows cost no memory:
 * PartitionKeys like {@code microsoft.extensions.00042} (built so that key order is position order), 1 to 8
 * versions each, one big partition last, and every EDM type. Only an int per partition is kept.
 */
final class GeneratedTable implements InMemoryTableStore.Rows {
    private static final String[] OWNERS = sortedCopy(SampleTable.OWNERS);
    private static final String[] WORDS = sortedCopy(SampleTable.WORDS);

    private final int rows;
    /** starts[p] is the position of partition p's first row; starts[partitions] = rows. */
    private final int[] starts;
    private final int partitions;
    private final boolean big;
    private final int perWord;
    private final int numberWidth;

    GeneratedTable(int rows) {
        this.rows = rows;
        int bigRows = rows >= 1000 ? rows / 10 : 0;
        int[] starts = new int[rows + 2];
        int p = 0;
        int position = 0;
        while (position < rows - bigRows) {
            starts[p++] = position;
            position += Math.min(1 + Math.floorMod(mix(p), 8), rows - bigRows - position);
        }
        this.big = bigRows > 0;
        if (big) {
            starts[p++] = position;
        }
        starts[p] = rows;
        this.partitions = p;
        this.starts = Arrays.copyOf(starts, p + 1);
        int small = big ? p - 1 : p;
        this.perWord = Math.max(1, (small + OWNERS.length * WORDS.length - 1) / (OWNERS.length * WORDS.length));
        this.numberWidth = Integer.toString(perWord).length();
    }

    int size() {
        return rows;
    }

    String partitionKey(int p) {
        if (big && p == partitions - 1) {
            return SampleTable.BIG_PARTITION; // "zz..." sorts after every owner
        }
        int word = p / perWord;
        // '.' sorts below letters and digits, so key order follows (owner, word, number) order.
        return OWNERS[word / WORDS.length] + "." + WORDS[word % WORDS.length] + "." + padded(p % perWord, numberWidth);
    }

    static String rowKey(int r) {
        return padded(r, 7);
    }

    private static String padded(int n, int width) {
        String digits = Integer.toString(n);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    /** The partition of an existing key, computed from its parts (no search), or -1. */
    int partitionNamed(String partitionKey) {
        if (big && partitionKey.equals(SampleTable.BIG_PARTITION)) {
            return partitions - 1;
        }
        String[] parts = partitionKey.split("\\.");
        if (parts.length != 3 || parts[2].length() != numberWidth) {
            return -1;
        }
        int owner = Arrays.binarySearch(OWNERS, parts[0]);
        int word = Arrays.binarySearch(WORDS, parts[1]);
        int number;
        try {
            number = Integer.parseInt(parts[2]);
        } catch (NumberFormatException e) {
            return -1;
        }
        if (owner < 0 || word < 0 || number < 0 || number >= perWord) {
            return -1;
        }
        int p = (owner * WORDS.length + word) * perWord + number;
        return p < (big ? partitions - 1 : partitions) ? p : -1;
    }

    Row row(int p, int r) {
        return SampleTable.row(partitionKey(p), rowKey(r), new Random(mix(p) * 31L + r));
    }

    /** The partition holding position i. */
    int partitionOf(int i) {
        int p = Arrays.binarySearch(starts, 0, partitions, i);
        return p >= 0 ? p : -p - 2;
    }

    int start(int p) {
        return starts[p];
    }

    int partitionSize(int p) {
        return starts[p + 1] - starts[p];
    }

    /** The partition with this key, or -(insertion point) - 1, like Arrays.binarySearch. */
    int findPartition(String partitionKey) {
        int low = 0;
        int high = partitions - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = partitionKey(mid).compareTo(partitionKey);
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -low - 1;
    }

    /** The position of the first row at or after (partitionKey, rowKey). */
    int ceiling(String partitionKey, String rowKey) {
        int p = findPartition(partitionKey);
        if (p < 0) {
            int next = -p - 1;
            return next >= partitions ? rows : starts[next];
        }
        int low = 0;
        int high = partitionSize(p);
        while (low < high) { // first r with rowKey(r) >= rowKey
            int mid = (low + high) >>> 1;
            if (rowKey(mid).compareTo(rowKey) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return starts[p] + low;
    }

    @Override
    public Iterable<Row> from(String partitionKey, String rowKey) {
        int first = ceiling(partitionKey, rowKey);
        return () -> new Iterator<>() {
            int i = first;
            int p = first < rows ? partitionOf(first) : partitions;

            @Override
            public boolean hasNext() {
                return i < rows;
            }

            String key;

            @Override
            public Row next() {
                if (i >= rows) {
                    throw new NoSuchElementException();
                }
                while (i >= starts[p + 1]) {
                    p++;
                    key = null;
                }
                if (key == null) {
                    key = partitionKey(p);
                }
                int r = i++ - starts[p];
                return SampleTable.row(key, rowKey(r), new Random(mix(p) * 31L + r));
            }
        };
    }

    @Override
    public String firstRowKey(String partitionKey) {
        return findPartition(partitionKey) >= 0 ? rowKey(0) : null;
    }

    @Override
    public void put(Row row) {
        throw new UnsupportedOperationException("a generated table is read-only");
    }

    @Override
    public List<Row> all() {
        List<Row> all = new ArrayList<>(rows);
        from("", "").forEach(all::add);
        return all;
    }

    private static int mix(int p) {
        int h = p * 0x9E3779B1;
        return h ^ (h >>> 15);
    }

    private static String[] sortedCopy(String[] words) {
        String[] copy = words.clone();
        Arrays.sort(copy);
        return copy;
    }
}
