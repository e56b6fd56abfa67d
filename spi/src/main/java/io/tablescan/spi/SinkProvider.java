package io.tablescan.spi;

/**
 * Makes sinks of one type. Providers are found with {@link java.util.ServiceLoader}: a new sink is one class
 * (with its provider) plus a line naming the provider in {@code META-INF/services/io.tablescan.spi.SinkProvider},
 * in a jar on the worker's class path or in the folder {@code TABLESCAN_PLUGINS} names.
 */
public interface SinkProvider {
    /** The type a scan names in its sink reference, e.g. {@code table}. */
    String type();

    /** A sink for {@code context.ref()}; throws {@link SinkException} when the reference cannot work. */
    RowSink create(SinkContext context);
}
