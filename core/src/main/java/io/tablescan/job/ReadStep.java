package io.tablescan.job;

import io.tablescan.runtime.ItemContext;
import io.tablescan.runtime.WorkerSettings;
import io.tablescan.scanner.StepResult;
import io.tablescan.schema.ScanSpec;
import io.tablescan.spi.ScanQuery;

/**
 * One bounded read of a work item, handed to its job ({@link Job#afterRead}).
 *
 * @param item the range the step read
 * @param step the rows read and the work handed off
 * @param depth the item's depth (the handed-off items are one deeper)
 * @param continued the item's continued partition, see {@code PartitionCount}
 * @param context the item's transaction: what it publishes commits with it
 * @param settings the worker's stores and Kafka settings
 */
public record ReadStep(ScanSpec spec, ScanQuery item, StepResult step, int depth, String continued,
        ItemContext context, WorkerSettings settings) {}
