package io.tablescan.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.util.List;

/**
 * {@code set.json}, a backup set's index, written last: the set's id and time, whether it is full or incremental
 * (and then the set it builds on), tablescan's version, and each table's
 * export: rows, bytes, files and the SHA-256 of its manifest (which holds every file's). {@code complete}: every
 * table's export is finished; a table that failed names its error and has no counts.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SetIndex(int formatVersion, String id, String kind, String base, String startTime, String endTime,
        String sourceAccount, String tablescanVersion, boolean complete, List<Table> tables) {
    public static final String NAME = "set.json";
    public static final int FORMAT_VERSION = 1;
    public static final String FULL = "full";
    public static final String INCREMENTAL = "incremental";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * One table of the set: its export under {@code <table>/}, and for an incremental set the keys of all its rows
     * under {@code <table>.keys/} ({@code keyRows}), which tell a restore the rows deleted since the base;
     * {@code since}: the time from which its rows were read (null: all of them, a full backup of the table).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Table(String table, Long rows, Long bytes, Integer files, String manifestSha256, Long keyRows,
            String since, String error) {
        public boolean ok() {
            return error == null;
        }
    }

    public boolean incremental() {
        return INCREMENTAL.equals(kind);
    }

    public Table table(String name) {
        return tables.stream().filter(t -> t.table().equals(name)).findFirst().orElse(null);
    }

    public long rows() {
        return tables.stream().mapToLong(t -> t.rows() == null ? 0 : t.rows()).sum();
    }

    public long bytes() {
        return tables.stream().mapToLong(t -> t.bytes() == null ? 0 : t.bytes()).sum();
    }

    /** Lower-case hex SHA-256 of {@code data}: a table's manifest as written. */
    public static String sha256(byte[] data) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One table's entry as JSON: a resumable backup set keeps its finished tables' entries this way. */
    public static String tableJson(Table table) {
        try {
            return JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(table);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A table's entry from {@link #tableJson}. */
    public static Table parseTable(String json) {
        try {
            return JSON.readValue(json, Table.class);
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.CORRUPT, "not a backup set table's entry");
        }
    }

    public static SetIndex parse(String where, byte[] json) {
        SetIndex index;
        try {
            index = JSON.readValue(json, SetIndex.class);
        } catch (IOException e) {
            throw new BackupException(BackupException.Kind.CORRUPT, where + " is not a backup set's index");
        }
        if (index == null || index.id() == null || index.tables() == null || index.startTime() == null
                || !(FULL.equals(index.kind()) || INCREMENTAL.equals(index.kind()))) {
            throw new BackupException(BackupException.Kind.CORRUPT, where + " lacks id, kind, startTime or tables");
        }
        if (index.formatVersion() != FORMAT_VERSION) {
            throw new BackupException(BackupException.Kind.CORRUPT, where + " has format version "
                    + index.formatVersion() + ", not " + FORMAT_VERSION + ", the one this tablescan reads");
        }
        return index;
    }
}
