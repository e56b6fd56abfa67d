package io.tablescan.scanner;

import io.tablescan.schema.Property;
import java.util.List;

/** One row as read from a table: its keys and its typed properties. */
public record TableRow(String partitionKey, String rowKey, List<Property> properties) {}
