package io.tablescan.cli;

import io.tablescan.azure.AzureTableStore;
import io.tablescan.azure.ODataFilter;
import io.tablescan.job.Job;
import io.tablescan.job.JobRequest;
import io.tablescan.runtime.KafkaSettings;
import io.tablescan.runtime.KafkaWait;
import io.tablescan.spi.KeyRange;
import io.tablescan.spi.QueryOptions;
import io.tablescan.table.Accounts;
import io.tablescan.table.RetryPolicy;
import io.tablescan.table.RetryingTableStore;
import io.tablescan.table.TableNames;
import io.tablescan.spi.TableStore;
import io.tablescan.spi.TableStoreException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/** Up-front checks of what the user gave, each failing with one clear line. */
final class Checks {
    /** What Kafka's clients accept in bootstrap.servers: [PROTOCOL://]HOST:PORT (IPv6 in brackets), comma-separated. */
    private static final String ADDRESS = "\\s*([A-Za-z][A-Za-z0-9+.-]*://)?(\\[[0-9A-Fa-f:.%]+]|[A-Za-z0-9._-]+):\\d{1,5}\\s*";
    private static final Pattern BOOTSTRAP = Pattern.compile(ADDRESS + "(," + ADDRESS + ")*");

    private Checks() {}

    /** The job's own rules on what the user asked (the same for every command that starts it); returns the job. */
    static Job job(Job job, JobRequest request) {
        try {
            job.validate(request);
            return job;
        } catch (JobRequest.Refused e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }

    static String tableName(String option, String name) {
        String problem = TableNames.problem(name);
        if (problem != null) {
            throw new UserError(UserError.USAGE, option + ": " + problem);
        }
        return name;
    }

    static String accountAlias(String option, String alias) {
        String problem = Accounts.aliasProblem(alias);
        if (problem != null) {
            throw new UserError(UserError.USAGE, option + ": " + problem);
        }
        return alias;
    }

    /** Refuses a malformed --kafka value before any connection; the value itself is not repeated. */
    static String bootstrapServers(String bootstrap) {
        if (bootstrap != null && !BOOTSTRAP.matcher(bootstrap).matches()) {
            throw new UserError(UserError.USAGE,
                    "--kafka (or KAFKA_BOOTSTRAP_SERVERS) must be HOST:PORT, comma-separated for several (e.g. 127.0.0.1:9092)");
        }
        return bootstrap;
    }

    static int pageSize(int pageSize) {
        String problem = QueryOptions.pageSizeProblem(pageSize);
        if (problem != null) {
            throw new UserError(UserError.USAGE, "--page-size " + problem);
        }
        return pageSize;
    }

    /** A --filter that can be ANDed to the key bounds (not one that closes their parentheses, say). */
    static void filter(String filter) {
        if (filter == null) {
            return;
        }
        if (filter.isBlank()) {
            throw new UserError(UserError.USAGE, "--filter is empty");
        }
        String problem = ODataFilter.problem(filter);
        if (problem != null) {
            throw new UserError(UserError.USAGE, "--filter: " + problem);
        }
    }

    /** --select names properties: letters, digits and '_' (the service's rule for property names). */
    static void select(List<String> names) {
        if (names == null) {
            return;
        }
        if (names.isEmpty() || names.stream().allMatch(String::isEmpty)) {
            throw new UserError(UserError.USAGE, "--select is empty");
        }
        for (int i = 0; i < names.size(); i++) {
            if (!names.get(i).matches("[A-Za-z_][A-Za-z0-9_]{0,254}")) {
                throw new UserError(UserError.USAGE, "--select: name " + (i + 1) + " is not a property name (1 to 255 "
                        + "letters, digits and '_', not starting with a digit)");
            }
        }
    }

    /**
     * Asks the source for one row with the scan's filter and projection, so that a filter the service refuses
     * (a misspelt operator, say) is one line now rather than a parked root item later.
     */
    static void queryAccepted(TableStore source, String table, String filter, List<String> select) {
        if (filter == null && select == null) {
            return;
        }
        try {
            retried(source).query(table, KeyRange.ALL, new QueryOptions(1, select, filter), null);
        } catch (TableStoreException e) {
            if (e.status() == 400) { // the service does not say which part; neither echoes what was typed
                throw new UserError(UserError.USAGE, "the source refuses --filter or --select (HTTP 400: a filter "
                        + "or property name it cannot parse, such as a misspelt operator or a trailing 'and')");
            }
            throw new UserError(UserError.forStatus(e.status()), "cannot read the source table " + table + ": "
                    + e.getMessage());
        }
    }

    /**
     * A check's requests: a dropped connection or a busy service is tried twice more within about a second, so that
     * one lost connection does not fail a nightly job before it starts, while a wrong endpoint still fails at once.
     */
    static final RetryPolicy RETRIES = new RetryPolicy(3, Duration.ofMillis(200), Duration.ofSeconds(1));

    static TableStore retried(TableStore store) {
        return new RetryingTableStore(store, RETRIES);
    }

    static TableStore store(String option, String connectionString) {
        try {
            return AzureTableStore.fromConnectionString(connectionString); // workers add their retries, checks theirs
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, option + ": " + e.getMessage());
        }
    }

    /**
     * Refuses to read an Azure Cosmos DB for Table endpoint, in one line: its queries return rows in no key order, and
     * the scan (its prefix and serial steps alike) infers from a page's order which keys it has finished, so it
     * would skip rows there and report success. Writing into one (a copy's or an import's destination) reads nothing.
     */
    static void keysInOrder(TableStore store, String what) {
        if (store instanceof AzureTableStore azure && azure.cosmos()) {
            throw new UserError(UserError.USAGE, "the " + what + " is an Azure Cosmos DB for Table account ("
                    + azure.endpoint() + "), whose queries return rows in no key order: tablescan's scan relies on "
                    + "that order and would skip rows, so it does not read from Cosmos DB yet (copying into one works)");
        }
    }

    /** An alias's store from this process's TABLESCAN_ACCOUNT_<ALIAS>_* variables. */
    static TableStore account(Accounts accounts, String alias) {
        try {
            return accounts.get(alias);
        } catch (Accounts.UnknownAccountException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
    }

    /**
     * " at ENDPOINT" when a request got no answer at all (nothing listens, no route), else "": where it was sent
     * (never a key or SAS: the endpoint has none); the error's message says how often it was tried.
     */
    static String at(TableStore store, TableStoreException e) {
        return e.status() == 0 && store instanceof AzureTableStore azure ? " at " + azure.endpoint() : "";
    }

    static void tableExists(TableStore store, String table, String what) {
        keysInOrder(store, what); // every table checked here is read
        boolean exists;
        try {
            exists = retried(store).tableExists(table);
        } catch (TableStoreException e) {
            // A 404 here is not the service's "no such table" (that is false): no table service at the endpoint.
            throw new UserError(e.status() == 404 ? UserError.UNREACHABLE : UserError.forStatus(e.status()),
                    "cannot read the " + what + " table " + table + at(store, e) + ": " + e.getMessage());
        }
        if (!exists) {
            throw new UserError(UserError.NOT_FOUND, "the " + what + " table " + table + " does not exist");
        }
    }

    /**
     * Refuses a copy onto its own source (same account however its endpoint is spelt, table names equal without
     * case, as the service compares them): it would rewrite every row with itself and report a successful copy.
     * Checked before any request.
     */
    static void notTheSource(TableStore source, String sourceTable, TableStore dest, String destTable) {
        boolean sameAccount = source == dest || source instanceof AzureTableStore a && dest instanceof AzureTableStore b
                && a.sameAccount(b);
        if (sameAccount && TableNames.same(sourceTable, destTable)) {
            throw new UserError(UserError.USAGE, "the destination is the source: table " + sourceTable + " on the same "
                    + "account (table names are compared without case); choose another --dest-table or account");
        }
    }

    /**
     * The same for {@code start}, as far as this machine can know: the same alias (aliases naming the same
     * variables are one), or two aliases this machine resolves to the same endpoint.
     */
    static void notTheSource(Accounts local, String sourceAlias, String sourceTable, String destAlias, String destTable) {
        if (!TableNames.same(sourceTable, destTable)) {
            return;
        }
        if (Accounts.variable(sourceAlias).equals(Accounts.variable(destAlias))) {
            throw new UserError(UserError.USAGE, "the destination is the source: table " + sourceTable + " of account "
                    + sourceAlias + " (aliases and table names are compared without case); choose another --dest-table or "
                    + "--dest-account");
        }
        if (local.configured(sourceAlias) && local.configured(destAlias)) {
            notTheSource(account(local, sourceAlias), sourceTable, account(local, destAlias), destTable);
        }
    }

    /** Warns, in one line, that a copy into a table that holds rows leaves a mix: only rows of the source are replaced. */
    static void warnIfHoldsRows(TableStore store, String table, java.io.PrintStream err) {
        TableStore dest = retried(store);
        try {
            var page = dest.query(table, KeyRange.ALL, new QueryOptions(1, List.of(), null), null);
            for (int more = 0; page.rows().isEmpty() && page.next() != null && more < 3; more++) {
                page = dest.query(table, KeyRange.ALL, new QueryOptions(1, List.of(), null), page.next());
            }
            if (!page.rows().isEmpty()) {
                err.println("warning: the destination table " + table + " already holds rows: rows with the source's keys "
                        + "are replaced, its other rows are kept");
            }
        } catch (TableStoreException e) {
            // Missing, or not readable with a write-only credential: only a warning is lost.
        }
    }

    /**
     * Waits, up to TABLESCAN_KAFKA_WAIT (one line says so), for a cluster that is starting; no host that resolves, a
     * cluster that refuses the client, or one still silent at the limit, is one line and exit 3.
     */
    static void kafkaReachable(KafkaSettings kafka) {
        bootstrapServers(kafka.bootstrapServers());
        Duration limit;
        try {
            limit = KafkaWait.limit(System.getenv());
        } catch (IllegalArgumentException e) {
            throw new UserError(UserError.USAGE, e.getMessage());
        }
        try {
            KafkaWait.await(kafka, limit, System.err::println);
        } catch (KafkaWait.Unreachable e) {
            throw new UserError(UserError.UNREACHABLE, e.getMessage());
        }
    }
}
