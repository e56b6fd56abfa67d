package io.tablescan.items;

import io.tablescan.schema.EntityBatch;
import io.tablescan.schema.EntityPage;
import io.tablescan.schema.PagePart;
import io.tablescan.schema.PartitionQuery;
import io.tablescan.schema.PrefixQuery;
import io.tablescan.schema.ScanSpec;
import io.tablescan.schema.SinkRef;
import io.tablescan.schema.TableRef;
import io.tablescan.sink.SinkRefs;
import io.tablescan.spi.QueryOptions;
import io.tablescan.table.TableNames;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Rejects work items whose values no scan could have produced, before any table request: they are parked
 * with the reason instead of failing somewhere deeper, or looping.
 */
public final class WorkItemValidator {
    private WorkItemValidator() {}

    /** Throws {@link InvalidItemException} naming the first impossible value. */
    public static void check(SpecificRecord item) {
        switch (item) {
            case PrefixQuery q -> {
                spec(q.getSpec());
                if (q.getLowerRow() != null && (q.getLower() == null || !q.getLower().getInclusive())) {
                    throw new InvalidItemException("a RowKey bound needs an inclusive PartitionKey bound");
                }
                if (q.getLower() != null && q.getUpper() != null && q.getLower().getKey().compareTo(q.getUpper()) >= 0) {
                    throw new InvalidItemException("lower bound '" + q.getLower().getKey() + "' is not below upper bound '"
                            + q.getUpper() + "'");
                }
            }
            case PartitionQuery q -> spec(q.getSpec());
            case EntityBatch b -> {
                spec(b.getSpec());
                if (!b.getDeletes().isEmpty()) { // a mirror's or delete's: rows or deletes, never both
                    if (!b.getEntities().isEmpty() || b.getDeletes().size() > EntityBatcher.MAX_ROWS
                            || !deletes(b.getSpec()) || etagsOff(b.getDeletes(), b.getDeleteEtags())) {
                        throw new InvalidItemException("a delete batch holds 1 to 100 RowKeys (and their ETags) of a "
                                + "mirror or a job that deletes, and no rows");
                    }
                } else if (b.getEntities().isEmpty() || b.getEntities().size() > EntityBatcher.MAX_ROWS) {
                    throw new InvalidItemException("an entity batch holds 1 to 100 rows, got " + b.getEntities().size());
                }
            }
            case EntityPage p -> {
                spec(p.getSpec());
                if (p.getParts().isEmpty()) {
                    throw new InvalidItemException("an entity page holds at least one part");
                }
                for (PagePart part : p.getParts()) {
                    part(part, deletes(p.getSpec()));
                }
            }
            default -> throw new InvalidItemException("not a work item: " + item.getSchema().getFullName());
        }
    }

    /** A page's part is checked as the entity batch it was. */
    private static void part(PagePart part, boolean deletes) {
        if (!part.getDeletes().isEmpty()) {
            if (!part.getEntities().isEmpty() || part.getDeletes().size() > EntityBatcher.MAX_ROWS || !deletes
                    || etagsOff(part.getDeletes(), part.getDeleteEtags())) {
                throw new InvalidItemException("a delete part holds 1 to 100 RowKeys (and their ETags) of a mirror "
                        + "or a job that deletes, and no rows");
            }
        } else if (part.getEntities().isEmpty() || part.getEntities().size() > EntityBatcher.MAX_ROWS) {
            throw new InvalidItemException("a page's part holds 1 to 100 rows, got " + part.getEntities().size());
        }
    }

    /**
     * Whether the spec may carry deletes: a mirror's, or one that names its job (the jobs live above this package;
     * the copy-worker refuses deletes of a job that deletes nothing, see {@code Job#deletesFrom}).
     */
    private static boolean deletes(ScanSpec spec) {
        return spec.getMirror() || spec.getJob() != null;
    }

    /** ETags go with the RowKeys one for one, or are absent (a record of a version before them: unconditional). */
    private static boolean etagsOff(List<String> rowKeys, List<String> etags) {
        return !etags.isEmpty() && etags.size() != rowKeys.size();
    }

    private static void spec(ScanSpec spec) {
        if (spec.getScanId().isBlank()) {
            throw new InvalidItemException("empty scan id");
        }
        String pageSize = QueryOptions.pageSizeProblem(spec.getPageSize());
        if (pageSize != null) {
            throw new InvalidItemException("page size " + pageSize);
        }
        if (spec.getPageBudget() < 1) {
            throw new InvalidItemException("page budget must be at least 1, got " + spec.getPageBudget());
        }
        String lower = spec.getLowerPartition();
        String upper = spec.getUpperPartition();
        if (lower != null && upper != null && lower.compareTo(upper) >= 0) {
            throw new InvalidItemException("the scan's lower partition bound is not below its upper bound");
        }
        table("source", spec.getSource());
        if (spec.getDestination() != null) {
            table("destination", spec.getDestination());
        }
        if (spec.getSink() != null) {
            sink(spec.getSink());
        }
    }

    private static void sink(SinkRef sink) {
        if (sink.getType().isBlank()) {
            throw new InvalidItemException("sink type is empty");
        }
        if (SinkRefs.TABLE.equals(sink.getType())) { // the table sink's reference is a table reference
            table("sink", new TableRef(sink.getAccount() == null ? "" : sink.getAccount(), sink.getTarget()));
        }
    }

    private static void table(String role, TableRef ref) {
        if (ref.getAccount().isBlank()) {
            throw new InvalidItemException(role + " account alias is empty");
        }
        if (TableNames.problem(ref.getTable()) != null) {
            throw new InvalidItemException(role + " table name '" + ref.getTable() + "' is not valid");
        }
    }

    /** A work item with a value no scan could have produced. */
    public static final class InvalidItemException extends RuntimeException {
        public InvalidItemException(String message) {
            super("invalid work item: " + message, null, false, false);
        }
    }
}
