package io.tablescan.azure;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs with the account key, as the Table service's Shared Key Lite scheme says: an HMAC-SHA256 of the
 * request's date and its resource ({@code /account/path}).
 */
final class SharedKeyLite implements Authorization {
    private final String account;
    private final SecretKeySpec key;
    /** Initialised MACs for reuse: requests run on short-lived virtual threads, where a ThreadLocal would not last. */
    private final ConcurrentLinkedQueue<Mac> macs = new ConcurrentLinkedQueue<>();
    /** The date header of the current second, formatted once: {second, text}. */
    private volatile Object[] date = {0L, ""};

    SharedKeyLite(String account, byte[] key) {
        this.account = account;
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    @Override
    public void authorize(HttpRequest.Builder request, String rawPath) {
        String now = now();
        Mac mac = macs.poll();
        if (mac == null) {
            mac = newMac();
        }
        byte[] signature = mac.doFinal((now + "\n/" + account + rawPath).getBytes(StandardCharsets.UTF_8));
        macs.offer(mac);
        request.setHeader("x-ms-date", now);
        request.setHeader("Authorization", "SharedKeyLite " + account + ":" + Base64.getEncoder().encodeToString(signature));
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private String now() {
        long second = System.currentTimeMillis() / 1000;
        Object[] cached = date;
        if ((Long) cached[0] != second) {
            cached = new Object[] {second, DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    ZonedDateTime.ofInstant(java.time.Instant.ofEpochSecond(second), ZoneOffset.UTC))};
            date = cached;
        }
        return (String) cached[1];
    }
}
