package io.tablescan.spi;

import java.util.Map;

/**
 * Where a scan's rows go, as the scan names it: a sink type, the account alias it writes to (null when it
 * needs none), its target (a table name for the table sink) and free-form options. No secret: the workers map
 * the alias to their own credentials.
 */
public record SinkRef(String type, String account, String target, Map<String, String> options) {
    public SinkRef {
        options = Map.copyOf(options);
    }
}
