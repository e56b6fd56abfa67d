package io.tablescan.cli;

import io.tablescan.table.Accounts;
import io.tablescan.table.SecondaryEndpoints;
import io.tablescan.spi.TableStore;
import picocli.CommandLine.Option;

/** Reading the source from its account's read-access secondary: the commands that read a source without writing it. */
final class SourceSecondaryOption {
    @Option(names = "--source-secondary", description = "Read the source from its account's read-access secondary "
            + "endpoint (RA-GRS, RA-GZRS: <account>-secondary.table.core.windows.net, or "
            + "TABLESCAN_ACCOUNT_<ALIAS>_SECONDARY_ENDPOINT), which lags the primary: rows written recently may be "
            + "missing. Nothing is written there.")
    boolean secondary;

    /**
     * A local run's source store on the secondary, registered for the scan's source name; the spec marked. Nothing
     * when not asked.
     */
    ScanSpecs.Copy applyTo(ScanSpecs.Copy spec, Accounts accounts, String name, SourceAccountOptions source,
            Accounts configured) {
        if (secondary) {
            accounts.registerSecondary(name, store(source, configured));
        }
        return spec.sourceSecondary(secondary);
    }

    /** Checks, where this machine knows the alias, that its secondary endpoint is known (one line, exit 2). */
    void check(Accounts local, String alias) {
        if (secondary && local.configured(alias)) {
            try {
                local.secondaryEndpoint(alias);
            } catch (Accounts.UnknownAccountException e) {
                throw new UserError(UserError.USAGE, "--source-secondary: " + e.getMessage());
            }
        }
    }

    private static TableStore store(SourceAccountOptions source, Accounts configured) {
        try {
            if (source.alias != null) {
                return configured.secondary(source.alias);
            }
            String secondary = SecondaryEndpoints.derive(SecondaryEndpoints.primaryOf(source.connectionString));
            if (secondary == null) {
                throw new UserError(UserError.USAGE, "--source-secondary: the connection string's table endpoint is "
                        + "not an Azure one, so its secondary cannot be derived; give --source-account ALIAS with "
                        + "TABLESCAN_ACCOUNT_<ALIAS>_SECONDARY_ENDPOINT");
            }
            return Checks.store("--source-connection-string",
                    SecondaryEndpoints.withTableEndpoint(source.connectionString, secondary));
        } catch (Accounts.UnknownAccountException e) {
            throw new UserError(UserError.USAGE, "--source-secondary: " + e.getMessage());
        }
    }
}
