package io.tablescan.backup;

import io.tablescan.schema.ScanSpec;
import io.tablescan.table.Accounts;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where an export on a cluster writes, as its scan's sink options carry it to the workers: a folder every
 * copy-worker reaches at the same path, or a Blob container of an account alias the workers resolve from their own
 * environment. Never a connection string, key or SAS token: those stay in the environments. Also the export run's
 * id and the source account's name for the manifest.
 */
public record ExportTarget(String folder, String container, String prefix, String account, String runId,
        String sourceAccount, String format) {
    static final String FOLDER = "export.folder";
    static final String CONTAINER = "export.container";
    static final String PREFIX = "export.prefix";
    static final String ACCOUNT = "export.account";
    static final String RUN = "export.run";
    static final String SOURCE = "export.source-account";
    static final String FORMAT = "export.format";

    public ExportTarget {
        if ((folder == null) == (container == null) || (container != null && account == null) || runId == null) {
            throw new IllegalArgumentException("an export target is a folder, or a container with an account alias, "
                    + "and a run id");
        }
    }

    public static ExportTarget folder(Path folder, String runId, String sourceAccount, FileFormat format) {
        return new ExportTarget(folder.toAbsolutePath().normalize().toString(), null, null, null, runId, sourceAccount,
                label(format));
    }

    public static ExportTarget container(String container, String prefix, String account, String runId,
            String sourceAccount, FileFormat format) {
        return new ExportTarget(null, container, prefix, account, runId, sourceAccount, label(format));
    }

    /** JSON lines, the default, is carried as no option at all: a spec reads as it did before formats. */
    private static String label(FileFormat format) {
        return format == FileFormat.JSONL ? null : format.label();
    }

    /** The data files' format (an unknown one, from a newer client, fails the export's files stage). */
    public FileFormat fileFormat() {
        try {
            return FileFormat.of(format);
        } catch (IllegalArgumentException e) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, e.getMessage());
        }
    }

    /** The sink options that carry it. */
    public Map<String, String> options() {
        Map<String, String> options = new LinkedHashMap<>();
        put(options, FOLDER, folder);
        put(options, CONTAINER, container);
        put(options, PREFIX, prefix);
        put(options, ACCOUNT, account);
        put(options, RUN, runId);
        put(options, SOURCE, sourceAccount);
        put(options, FORMAT, format);
        return options;
    }

    /** The target of a scan that is an export on a cluster, if it is one. */
    public static Optional<ExportTarget> of(ScanSpec spec) {
        if (spec == null || spec.getSink() == null || spec.getSink().getOptions() == null) {
            return Optional.empty();
        }
        Map<String, String> o = spec.getSink().getOptions();
        if (o.get(RUN) == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ExportTarget(o.get(FOLDER), o.get(CONTAINER), o.get(PREFIX), o.get(ACCOUNT),
                    o.get(RUN), o.get(SOURCE), o.get(FORMAT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Opens the store with this process's environment; a Blob alias it does not know is a BAD_INPUT failure. */
    public BackupStore open(Function<String, String> env) {
        return open(folder, container, prefix, account, env);
    }

    /** The folder, or the container of an account alias resolved with {@code env}. */
    static BackupStore open(String folder, String container, String prefix, String account,
            Function<String, String> env) {
        if (folder != null) {
            return new FolderStore(Path.of(folder));
        }
        BlobStore store = BlobStore.fromSettings(setting -> {
            String value = env.apply(Accounts.variable(account, setting));
            return value == null || value.isBlank() ? null : value;
        }, container, prefix);
        if (store == null) {
            throw new BackupException(BackupException.Kind.BAD_INPUT, "this process knows no account alias '" + account
                    + "' for Blob storage (set " + Accounts.variable(account) + " or "
                    + Accounts.variable(account, BlobStore.BLOB_ENDPOINT) + ")");
        }
        return store;
    }

    /** Where, for messages: the folder, or the container, its prefix and its account's alias (no secret). */
    public String describe() {
        return folder != null ? folder : "container " + container + (prefix == null ? "" : " under " + prefix)
                + " of account " + account;
    }

    private static void put(Map<String, String> options, String key, String value) {
        if (value != null) {
            options.put(key, value);
        }
    }
}
