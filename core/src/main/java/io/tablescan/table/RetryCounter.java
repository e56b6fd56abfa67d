package io.tablescan.table;

/**
 * Where retries are counted: the context of the work item whose requests they are, so that the ledger counts
 * them with that item's scan.
 */
public interface RetryCounter {
    /** Counts nothing: for callers outside any work item (the demo's setup, benchmarks, samples). */
    RetryCounter NONE = new RetryCounter() {
        @Override
        public void retried() {}

        @Override
        public void throttled() {}
    };

    /** A request or write was retried after a transient failure. */
    void retried();

    /** The service answered with throttling (429 or 503). */
    void throttled();
}
