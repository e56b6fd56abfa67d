package io.tablescan.sink;

import io.tablescan.spi.RowSink;
import io.tablescan.spi.SinkContext;
import io.tablescan.spi.SinkException;
import io.tablescan.spi.SinkProvider;
import io.tablescan.spi.SinkRef;
import io.tablescan.table.RetryPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The sinks of one worker: providers by type (found with {@link ServiceLoader} on the class path and in the
 * {@link SinkPlugins} folder), one sink per sink reference, made on its first batch and kept, so every scan
 * naming the same target shares it.
 */
public final class SinkRegistry implements AutoCloseable {
    private final Map<String, SinkProvider> providers;
    private final Function<SinkRef, SinkContext> contexts;
    private final RetryPolicy retry;
    private final Map<SinkRef, GuardedSink> sinks = new ConcurrentHashMap<>();

    public SinkRegistry(Iterable<SinkProvider> providers, Function<SinkRef, SinkContext> contexts, RetryPolicy retry) {
        Map<String, SinkProvider> byType = new TreeMap<>();
        for (SinkProvider provider : providers) {
            SinkProvider other = byType.putIfAbsent(provider.type(), provider);
            if (other != null) { // which one would win depends on the class path or plugins: refuse to guess
                throw new IllegalArgumentException("two sink providers of type '" + provider.type() + "': "
                        + other.getClass().getName() + " and " + provider.getClass().getName());
            }
        }
        this.providers = byType;
        this.contexts = contexts;
        this.retry = retry;
    }

    /** The providers on the class path of this worker. */
    public static SinkRegistry load(Function<SinkRef, SinkContext> contexts, RetryPolicy retry) {
        return load(SinkPlugins.NONE, contexts, retry);
    }

    /**
     * The worker's own {@code builtIn} providers, and those on the class path and in {@code plugins}.
     *
     * @throws IllegalArgumentException for two providers of one type, or one that cannot be loaded
     */
    public static SinkRegistry load(SinkPlugins plugins, Function<SinkRef, SinkContext> contexts, RetryPolicy retry,
            SinkProvider... builtIn) {
        List<SinkProvider> providers = new ArrayList<>(List.of(builtIn));
        providers.addAll(plugins.providers());
        return new SinkRegistry(providers, contexts, retry);
    }

    /** The sink types this registry makes, sorted. */
    public Set<String> types() {
        return Collections.unmodifiableSet(providers.keySet());
    }

    /**
     * The sink for {@code ref}, prepared on its first write and retrying transient failures.
     *
     * @throws SinkException (permanent) when no provider has the reference's type
     */
    public GuardedSink sink(SinkRef ref) {
        GuardedSink sink = sinks.get(ref);
        if (sink != null) {
            return sink;
        }
        SinkProvider provider = providers.get(ref.type());
        if (provider == null) {
            throw SinkException.permanent("unknown sink type '" + ref.type() + "': this worker has sinks of type "
                    + String.join(", ", providers.keySet()));
        }
        // A failed create is not kept: the next batch tries again (its account may be configured by then).
        return sinks.computeIfAbsent(ref, r -> new GuardedSink(provider.create(contexts.apply(r)), retry));
    }

    /**
     * The commit point of every sink written to since its last one, before the worker commits the items whose
     * rows they were given.
     *
     * @throws RuntimeException the first sink's failure ({@link FailedWriteException} for a {@link SinkException});
     *     the other sinks are flushed all the same
     */
    public void flush() {
        forEach(GuardedSink::flush);
    }

    /** Closes every sink; one that fails to close does not keep the others open. */
    @Override
    public void close() {
        try {
            forEach(GuardedSink::close);
        } finally {
            sinks.clear();
        }
    }

    /** Calls {@code action} on every sink, then throws the first failure, the others suppressed in it. */
    private void forEach(Consumer<GuardedSink> action) {
        RuntimeException first = null;
        for (GuardedSink sink : sinks.values()) {
            try {
                action.accept(sink);
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
