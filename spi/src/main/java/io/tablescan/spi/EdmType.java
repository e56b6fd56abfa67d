package io.tablescan.spi;

/** The Entity Data Model types of Azure Table Storage: the type every row property carries. */
public enum EdmType {
    STRING, INT32, INT64, DOUBLE, BOOLEAN, DATETIME, GUID, BINARY
}
