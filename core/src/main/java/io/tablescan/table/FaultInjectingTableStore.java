package io.tablescan.table;

import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A testing aid, off by default: fails a fraction of table requests the way the service and the network do,
 * so retries, idempotent replays and dead letters can be proven under faults. Set
 * {@code TABLESCAN_FAULT_RATE} (0 to 1) and optionally {@code TABLESCAN_FAULT_KINDS}.
 */
public final class FaultInjectingTableStore extends InterceptingTableStore {
    public static final String RATE = "TABLESCAN_FAULT_RATE";
    public static final String KINDS = "TABLESCAN_FAULT_KINDS";

    /** What an injected fault looks like. */
    public enum Kind {
        /** 503 ServerBusy before the request reaches the service. */
        BUSY,
        /** 500 OperationTimedOut; the service may or may not have applied a write (here: it did). */
        TIMEOUT,
        /** The response comes late (then succeeds). */
        SLOW,
        /** The connection drops after the service applied the request. */
        DROP
    }

    /** Faults to inject: a rate and the kinds to draw from. */
    public record Faults(double rate, Set<Kind> kinds, Duration slowness) {
        public static final Faults NONE = new Faults(0, EnumSet.allOf(Kind.class), Duration.ofMillis(500));

        public boolean enabled() {
            return rate > 0;
        }

        /** From {@code TABLESCAN_FAULT_RATE} and {@code TABLESCAN_FAULT_KINDS} (e.g. {@code busy,timeout,slow,drop}). */
        public static Faults fromEnvironment(Map<String, String> env) {
            String rate = env.get(RATE);
            if (rate == null || rate.isBlank()) {
                return NONE;
            }
            double r;
            try {
                r = Double.parseDouble(rate.trim());
            } catch (NumberFormatException e) {
                r = -1;
            }
            if (!(r >= 0 && r <= 1)) {
                throw new IllegalArgumentException(RATE + " must be a number from 0 to 1, got '" + rate + "'");
            }
            Set<Kind> kinds = EnumSet.noneOf(Kind.class);
            for (String name : env.getOrDefault(KINDS, "busy,timeout,slow,drop").split(",")) {
                try {
                    kinds.add(Kind.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(KINDS + ": unknown fault '" + name.trim()
                            + "' (busy, timeout, slow, drop)");
                }
            }
            return new Faults(r, kinds, NONE.slowness());
        }
    }

    private static final AtomicLong INJECTED = new AtomicLong();

    private final Faults faults;
    private final Kind[] kinds;

    public FaultInjectingTableStore(TableStore store, Faults faults) {
        super(store);
        this.faults = faults;
        this.kinds = faults.kinds().toArray(Kind[]::new);
    }

    /** The store itself when no faults are asked for. */
    public static TableStore wrap(TableStore store, Faults faults) {
        return faults.enabled() ? new FaultInjectingTableStore(store, faults) : store;
    }

    /** Faults injected by every instance in this process. */
    public static long injected() {
        return INJECTED.get();
    }

    @Override
    protected <T> T call(String operation, Supplier<T> request) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (kinds.length == 0 || random.nextDouble() >= faults.rate()) {
            return request.get();
        }
        INJECTED.incrementAndGet();
        switch (kinds[random.nextInt(kinds.length)]) {
            case BUSY -> throw new TableStoreException("HTTP 503 ServerBusy (injected)", 503, true, null);
            case TIMEOUT -> {
                request.get();
                throw new TableStoreException("HTTP 500 OperationTimedOut (injected)", 500, true, null);
            }
            case SLOW -> {
                try {
                    Thread.sleep(faults.slowness()); // a late response
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return request.get();
            }
            case DROP -> {
                request.get();
                throw new TableStoreException("connection reset (injected)", 0, true, null);
            }
            default -> throw new IllegalStateException();
        }
    }
}
