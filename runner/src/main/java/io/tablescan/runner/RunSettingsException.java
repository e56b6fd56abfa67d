package io.tablescan.runner;

/** A setting of the in-process workers (plugins, faults, metrics port) that cannot be used: one line for the user. */
public final class RunSettingsException extends IllegalArgumentException {
    public RunSettingsException(String message) {
        super(message);
    }
}
