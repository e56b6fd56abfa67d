package io.tablescan.items;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Deterministic item ids: the same scan, kind and bounds always give the same id. */
public final class ItemIds {
    private ItemIds() {}

    public static String of(String scanId, String kind, String... bounds) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            update(sha, scanId);
            update(sha, kind);
            for (String bound : bounds) {
                update(sha, bound == null ? "\u0000null" : bound);
            }
            return kind + "-" + HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void update(MessageDigest sha, String part) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        sha.update((byte) (bytes.length >>> 24));
        sha.update((byte) (bytes.length >>> 16));
        sha.update((byte) (bytes.length >>> 8));
        sha.update((byte) bytes.length);
        sha.update(bytes);
    }
}
