package io.tablescan.spi;

/** One unit of scan work, stated as key bounds (never as a service continuation token). */
public sealed interface ScanQuery permits KeyRange, PartitionRange {}
