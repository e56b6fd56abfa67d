package io.tablescan.spi;

import java.util.List;

/** One row of a table: its keys and its typed properties (Timestamp and ETag are the service's, not the row's). */
public record Row(String partitionKey, String rowKey, List<RowProperty> properties) {}
