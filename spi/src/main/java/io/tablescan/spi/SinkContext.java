package io.tablescan.spi;

/** What a provider gets to build a sink: the scan's reference to it and the worker's configured accounts. */
public interface SinkContext {
    SinkRef ref();

    /**
     * The worker's client for an account alias, of a kind the worker knows (the table store of the account,
     * say), with the worker's retries and metering around it. Credentials stay in the worker's environment.
     *
     * @throws IllegalArgumentException when the worker knows no such account, or no client of that kind
     */
    <T> T account(String alias, Class<T> kind);
}
