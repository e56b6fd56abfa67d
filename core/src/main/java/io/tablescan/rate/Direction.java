package io.tablescan.rate;

/** What a cap limits: the source's reads or the destination's writes. */
public enum Direction {
    READ("read"), WRITE("write");

    /** The key in a spec's limits and the name in demand records and metrics. */
    public final String key;

    Direction(String key) {
        this.key = key;
    }

    public static Direction of(String key) {
        for (Direction d : values()) {
            if (d.key.equals(key)) {
                return d;
            }
        }
        return null;
    }
}
