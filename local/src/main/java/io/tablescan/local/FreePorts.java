package io.tablescan.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Loopback ports: finding a free one and waiting until a server listens on one. */
public final class FreePorts {
    private FreePorts() {}

    public static int find() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /** Whether this process can listen on loopback port {@code port} now. */
    public static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as the broker's listener does: a port in TIME_WAIT is free to it
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Polls {@code condition} until it holds; false when {@code deadline} passes or {@code alive} turns false. */
    public static boolean await(BooleanSupplier condition, Duration deadline, BooleanSupplier alive) {
        Instant end = Instant.now().plus(deadline);
        while (Instant.now().isBefore(end) && alive.getAsBoolean()) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(100); // polling interval of a condition wait, not a synchronisation sleep
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }
}
