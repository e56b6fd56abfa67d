package io.tablescan.backup;

import io.tablescan.azure.RowJson;
import io.tablescan.azure.WireForm;
import io.tablescan.spi.EdmType;
import io.tablescan.spi.Row;
import io.tablescan.spi.RowProperty;
import io.tablescan.spi.ValueText;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Rows as Parquet, one column per {@link TableSchema} column: strings UTF8, Int32 INT32, Int64 INT64, Double
 * DOUBLE, Boolean BOOLEAN, Guid UUID, Binary BINARY, DateTime (and the Timestamp) INT64 nanoseconds since 1970 as
 * a timestamp not adjusted to UTC (the values are UTC; the UTC-adjusted form is read by DuckDB to microseconds
 * only, and these keep all 7 of the service's fraction digits). A column of the service's texts is UTF8. Snappy,
 * row groups of {@value #ROW_GROUP_BYTES} bytes flushed as they fill, so a writer holds at most about one. The
 * schema rides in each file's metadata ({@value #SCHEMA_KEY}), so an import reads each column as the type it was.
 */
final class ParquetFile implements DataFileFormat {
    static final String SCHEMA_KEY = "tablescan.schema";
    static final int ROW_GROUP_BYTES = 16 * 1024 * 1024;

    private final TableSchema schema;

    /** Writes with {@code schema}; null: a reader only. */
    ParquetFile(TableSchema schema) {
        this.schema = schema;
    }

    @Override
    public String extension() {
        return FileFormat.PARQUET.extension();
    }

    /** The Parquet schema of an export's columns. */
    static MessageType messageType(TableSchema schema) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (TableSchema.Column c : schema.columns()) {
            boolean key = c.system() && !c.name().equals(TableSchema.TIMESTAMP);
            Types.PrimitiveBuilder<?> field = key ? message.required(PrimitiveTypeName.BINARY)
                    : message.optional(primitive(c));
            if (c.text() || c.type() == EdmType.STRING) {
                field.as(LogicalTypeAnnotation.stringType());
            } else if (c.type() == EdmType.DATETIME) {
                field.as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.NANOS));
            } else if (c.type() == EdmType.GUID) {
                ((Types.PrimitiveBuilder<?>) field).length(16).as(LogicalTypeAnnotation.uuidType());
            }
            field.named(c.name());
        }
        return message.named("row");
    }

    private static PrimitiveTypeName primitive(TableSchema.Column c) {
        if (c.text()) {
            return PrimitiveTypeName.BINARY;
        }
        return switch (c.type()) {
            case STRING, BINARY -> PrimitiveTypeName.BINARY;
            case INT32 -> PrimitiveTypeName.INT32;
            case INT64, DATETIME -> PrimitiveTypeName.INT64;
            case DOUBLE -> PrimitiveTypeName.DOUBLE;
            case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
            case GUID -> PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        };
    }

    @Override
    public Output open(OutputStream out) throws IOException {
        MessageType type = messageType(schema);
        Map<String, EnumMap<EdmType, int[]>> index = schema.index();
        ParquetWriter<Row> writer = new Builder(new StreamFile(out), new RowWrites(type, schema, index))
                .withConf(new PlainParquetConfiguration()).withCompressionCodec(CompressionCodecName.SNAPPY)
                .withRowGroupSize(ROW_GROUP_BYTES).withValidation(false).build();
        return new Output() {
            @Override
            public long add(byte[] rowJson) throws IOException {
                writer.write(RowJson.parse(rowJson));
                return rowJson.length;
            }

            @Override
            public void finish() throws IOException {
                writer.close();
            }
        };
    }

    /** Writes each row's values into the columns of the schema. */
    private static final class RowWrites extends WriteSupport<Row> {
        private final MessageType type;
        private final TableSchema schema;
        private final Map<String, EnumMap<EdmType, int[]>> index;
        private RecordConsumer out;

        RowWrites(MessageType type, TableSchema schema, Map<String, EnumMap<EdmType, int[]>> index) {
            this.type = type;
            this.schema = schema;
            this.index = index;
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(type, Map.of(SCHEMA_KEY, new String(schema.toJson(), StandardCharsets.UTF_8)));
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return init((ParquetConfiguration) null);
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.out = recordConsumer;
        }

        @Override
        public void write(Row row) {
            RowProperty[] byColumn = new RowProperty[schema.columns().size()];
            for (RowProperty p : row.properties()) {
                if (p.value() != null) {
                    byColumn[schema.column(index, p)] = p;
                }
            }
            out.startMessage();
            field(0, Binary.fromString(row.partitionKey()));
            field(1, Binary.fromString(row.rowKey()));
            if (row.timestamp() != null) {
                out.startField(TableSchema.TIMESTAMP, 2);
                out.addLong(Math.multiplyExact(row.timestamp(), 100L));
                out.endField(TableSchema.TIMESTAMP, 2);
            }
            for (int i = 3; i < byColumn.length; i++) {
                if (byColumn[i] != null) {
                    value(i, schema.columns().get(i), byColumn[i]);
                }
            }
            out.endMessage();
        }

        private void field(int i, Binary value) {
            String name = schema.columns().get(i).name();
            out.startField(name, i);
            out.addBinary(value);
            out.endField(name, i);
        }

        private void value(int i, TableSchema.Column c, RowProperty p) {
            out.startField(c.name(), i);
            if (c.text()) {
                out.addBinary(Binary.fromString(WireForm.text(p)));
            } else {
                Object v = p.value();
                switch (p.type()) {
                    case STRING -> out.addBinary(Binary.fromString((String) v));
                    case INT32 -> out.addInteger((Integer) v);
                    case INT64 -> out.addLong((Long) v);
                    case DOUBLE -> out.addDouble((Double) v);
                    case BOOLEAN -> out.addBoolean((Boolean) v);
                    case DATETIME -> out.addLong(Math.multiplyExact((Long) v, 100L)); // in range: see PropertyCatalog
                    case GUID -> out.addBinary(Binary.fromConstantByteArray(uuidBytes(UUID.fromString((String) v))));
                    case BINARY -> out.addBinary(Binary.fromConstantByteArray((byte[]) v));
                }
            }
            out.endField(c.name(), i);
        }
    }

    private static byte[] uuidBytes(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits())
                .array();
    }

    @Override
    public long read(String name, byte[] data, Consumer<Row> each) {
        long count = 0;
        ParquetFileReader opened;
        try {
            opened = ParquetFileReader.open(new BytesFile(name, data),
                    org.apache.parquet.ParquetReadOptions.builder().build());
        } catch (IOException | RuntimeException e) { // no footer that describes its columns
            throw DataFileReader.bad(name, "it is not a Parquet file (" + e.getMessage() + ")");
        }
        try (ParquetFileReader reader = opened) {
            MessageType type = reader.getFooter().getFileMetaData().getSchema();
            String stored = reader.getFooter().getFileMetaData().getKeyValueMetaData().get(SCHEMA_KEY);
            List<ColumnRead> columns = columns(name, type, stored);
            var io = new ColumnIOFactory().getColumnIO(type);
            for (var pages = reader.readNextRowGroup(); pages != null; pages = reader.readNextRowGroup()) {
                RecordReader<Group> records = io.getRecordReader(pages, new GroupRecordConverter(type));
                for (long r = 0; r < pages.getRowCount(); r++) {
                    Row row;
                    try {
                        row = row(name, records.read(), columns);
                    } catch (ArithmeticException | java.time.DateTimeException | NumberFormatException e) {
                        throw DataFileReader.bad(name, "row " + (count + 1) + " has a value no Azure Table type holds ("
                                + e.getMessage() + ")");
                    }
                    try {
                        each.accept(row);
                    } catch (RuntimeException e) {
                        throw new Passed(e); // the caller's failure, not the file's
                    }
                    count++;
                }
            }
        } catch (Passed e) {
            throw (RuntimeException) e.getCause();
        } catch (BackupException e) {
            throw e;
        } catch (LinkageError e) { // a codec whose library is not on the class path
            throw DataFileReader.bad(name, "its compression is not one tablescan reads (" + e.getMessage() + ")");
        } catch (IOException | RuntimeException e) {
            throw DataFileReader.bad(name, "it cannot be read as Parquet (" + e.getMessage() + ")");
        }
        return count;
    }

    /** An exception of the caller's, carried through the file's own failures. */
    private static final class Passed extends RuntimeException {
        Passed(RuntimeException cause) {
            super(cause);
        }
    }

    /**
     * How each column of a file reads into a row: by the schema it carries, else by its names and types; a
     * timestamp's unit ({@code null}: not a timestamp), and an unsigned 32-bit integer read into an Int64.
     */
    private record ColumnRead(int field, String name, String property, EdmType type, boolean text,
            LogicalTypeAnnotation.TimeUnit unit, boolean unsigned) {
        /** A timestamp's value as ticks (100 ns); one that ticks cannot hold fails the row, never wraps. */
        long ticks(long value) {
            return switch (unit == null ? LogicalTypeAnnotation.TimeUnit.NANOS : unit) {
                case NANOS -> Math.floorDiv(value, 100);
                case MICROS -> Math.multiplyExact(value, 10);
                case MILLIS -> Math.multiplyExact(value, 10_000);
            };
        }
    }

    /** A property name the service takes: a C# identifier's letters, digits and underscores, at most 255. */
    private static final java.util.regex.Pattern PROPERTY = java.util.regex.Pattern.compile(
            "[A-Za-z_][A-Za-z0-9_]{0,254}");

    private static List<ColumnRead> columns(String file, MessageType type, String stored) {
        Map<String, TableSchema.Column> known = new HashMap<>();
        if (stored != null) {
            TableSchema.parse(stored.getBytes(StandardCharsets.UTF_8)).columns().forEach(c -> known.put(c.name(), c));
        }
        List<ColumnRead> reads = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            Type field = type.getType(i);
            String name = field.getName();
            if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
                throw DataFileReader.bad(file, "column " + name + " is not a plain column (a list or a group)");
            }
            PrimitiveType p = field.asPrimitiveType();
            LogicalTypeAnnotation.TimeUnit unit = p.getLogicalTypeAnnotation()
                    instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t ? t.getUnit() : null;
            TableSchema.Column c = known.get(name);
            if (c != null) {
                reads.add(new ColumnRead(i, name, c.property(), c.type(), c.text(), unit, false));
            } else if (name.equals(TableSchema.PARTITION_KEY) || name.equals(TableSchema.ROW_KEY)
                    || name.equals(TableSchema.TIMESTAMP)) {
                reads.add(new ColumnRead(i, name, null, name.equals(TableSchema.TIMESTAMP) ? EdmType.DATETIME
                        : EdmType.STRING, false, unit, false));
            } else {
                reads.add(foreign(file, i, name, p, unit));
            }
        }
        if (reads.stream().noneMatch(r -> r.name().equals(TableSchema.PARTITION_KEY))
                || reads.stream().noneMatch(r -> r.name().equals(TableSchema.ROW_KEY))) {
            throw DataFileReader.bad(file, "it has no PartitionKey or no RowKey column");
        }
        return reads;
    }

    /**
     * A column another tool wrote (or an export whose embedded schema a tool dropped): its property and type from
     * its name ({@code Name}, {@code Name@Type}, {@code Name@Type@Text}) and its Parquet type. A string column
     * named as a DateTime, Int64 or Guid holds the service's texts of them; any other mismatch is refused.
     */
    private static ColumnRead foreign(String file, int i, String name, PrimitiveType p,
            LogicalTypeAnnotation.TimeUnit unit) {
        String property = name;
        boolean text = property.endsWith("@Text");
        if (text) {
            property = property.substring(0, property.length() - "@Text".length());
        }
        int at = property.lastIndexOf('@');
        EdmType named = at > 0 ? typeNamed(property.substring(at + 1)) : null;
        if (named != null) {
            property = property.substring(0, at);
        }
        if (!PROPERTY.matcher(property).matches()) {
            throw DataFileReader.bad(file, "column " + name + " is not a property name the service takes (letters, "
                    + "digits and '_', optionally followed by @Type or @Type@Text)");
        }
        boolean unsigned = p.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation n
                && !n.isSigned();
        EdmType inferred = edmType(file, name, p, unit, unsigned);
        boolean textual = named != null && inferred == EdmType.STRING
                && (named == EdmType.DATETIME || named == EdmType.INT64 || named == EdmType.GUID);
        if (text && !textual) {
            throw DataFileReader.bad(file, "column " + name + " is named as texts of a DateTime, Int64 or Guid "
                    + "(Name@DateTime@Text, Name@Int64@Text or Name@Guid@Text) but is not");
        }
        if (named != null && named != inferred && !textual) {
            throw DataFileReader.bad(file, "column " + name + " is a Parquet " + p.getPrimitiveTypeName()
                    + (p.getLogicalTypeAnnotation() == null ? "" : " " + p.getLogicalTypeAnnotation())
                    + ", not the " + WireForm.name(named) + " its name says");
        }
        return new ColumnRead(i, name, property, named != null ? named : inferred, textual, unit,
                unsigned && inferred == EdmType.INT64 && p.getPrimitiveTypeName() == PrimitiveTypeName.INT32);
    }

    private static EdmType typeNamed(String label) {
        for (EdmType t : EdmType.values()) {
            if (WireForm.name(t).equals(label)) {
                return t;
            }
        }
        return null;
    }

    /**
     * The EDM type of a column another tool wrote, from its Parquet type: unsigned 8- and 16-bit integers are Int32s,
     * unsigned 32-bit ones Int64s; a type no Azure Table type holds (DECIMAL, unsigned 64-bit, dates without a
     * time) is refused.
     */
    private static EdmType edmType(String file, String name, PrimitiveType p, LogicalTypeAnnotation.TimeUnit unit,
            boolean unsigned) {
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        boolean integer = logical == null || logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation;
        int bits = logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation n ? n.getBitWidth() : 0;
        EdmType type = switch (p.getPrimitiveTypeName()) {
            case BINARY -> logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation ? EdmType.STRING
                    : logical == null ? EdmType.BINARY : null;
            case INT32 -> !integer ? null : unsigned && bits == 32 ? EdmType.INT64 : EdmType.INT32;
            case INT64 -> unit != null ? EdmType.DATETIME : integer && !unsigned ? EdmType.INT64 : null;
            case DOUBLE, FLOAT -> EdmType.DOUBLE;
            case BOOLEAN -> EdmType.BOOLEAN;
            case FIXED_LEN_BYTE_ARRAY -> logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation
                    ? EdmType.GUID : null;
            default -> null;
        };
        if (type == null) {
            throw DataFileReader.bad(file, "column " + name + " (" + p + ") has no Azure Table type");
        }
        return type;
    }

    private static Row row(String file, Group g, List<ColumnRead> columns) {
        String pk = null;
        String rk = null;
        Long timestamp = null;
        List<RowProperty> properties = new ArrayList<>();
        for (ColumnRead c : columns) {
            if (g.getFieldRepetitionCount(c.field()) == 0) {
                continue;
            }
            if (c.property() == null) {
                switch (c.name()) {
                    case TableSchema.PARTITION_KEY -> pk = g.getString(c.field(), 0);
                    case TableSchema.ROW_KEY -> rk = g.getString(c.field(), 0);
                    default -> timestamp = c.ticks(g.getLong(c.field(), 0));
                }
            } else {
                properties.add(value(g, c));
            }
        }
        if (pk == null || rk == null) {
            throw DataFileReader.bad(file, "a row has no PartitionKey or no RowKey");
        }
        return new Row(pk, rk, List.copyOf(properties), timestamp);
    }

    private static final java.util.regex.Pattern GUID = java.util.regex.Pattern.compile(
            "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}");

    private static RowProperty value(Group g, ColumnRead c) {
        int f = c.field();
        if (c.text()) {
            String text = g.getString(f, 0);
            return switch (c.type()) {
                case DATETIME -> new RowProperty(c.property(), c.type(), ValueText.ticks(text), text);
                case INT64 -> new RowProperty(c.property(), c.type(), Long.parseLong(text), text);
                case GUID -> {
                    if (!GUID.matcher(text).matches()) {
                        throw new NumberFormatException("'" + text + "' is not a Guid");
                    }
                    yield new RowProperty(c.property(), c.type(), text);
                }
                default -> new RowProperty(c.property(), c.type(), text);
            };
        }
        Object v = switch (c.type()) {
            case STRING -> g.getString(f, 0);
            case INT32 -> g.getInteger(f, 0);
            case INT64 -> c.unsigned() ? Integer.toUnsignedLong(g.getInteger(f, 0)) : g.getLong(f, 0);
            case DOUBLE -> g.getType().getType(f).asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.FLOAT
                    ? (double) g.getFloat(f, 0) : g.getDouble(f, 0);
            case BOOLEAN -> g.getBoolean(f, 0);
            case DATETIME -> c.ticks(g.getLong(f, 0));
            case GUID -> {
                ByteBuffer b = g.getBinary(f, 0).toByteBuffer();
                yield new UUID(b.getLong(), b.getLong()).toString();
            }
            case BINARY -> g.getBinary(f, 0).getBytes();
        };
        return new RowProperty(c.property(), c.type(), v);
    }

    /** parquet-java's writer builder, over a plain stream: no Hadoop file system. */
    private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
        private final RowWrites writes;

        Builder(OutputFile file, RowWrites writes) {
            super(file);
            this.writes = writes;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Row> getWriteSupport(ParquetConfiguration conf) {
            return writes;
        }

        @Override
        protected WriteSupport<Row> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
            return writes;
        }
    }

    /** A file being streamed: its position is the bytes written so far; closing it leaves the stream open. */
    private record StreamFile(OutputStream out) implements OutputFile {
        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return new PositionOutputStream() {
                private long position;

                @Override
                public long getPos() {
                    return position;
                }

                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    position++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    position += len;
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    out.flush(); // the stream is the part file's, which finishes it
                }
            };
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            return create(blockSizeHint);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return "stream";
        }
    }

    /** A whole file in memory, as the import reads data files; named by its file name in messages. */
    private record BytesFile(String name, byte[] data) implements InputFile {
        @Override
        public String toString() {
            return name;
        }

        @Override
        public long getLength() {
            return data.length;
        }

        @Override
        public SeekableInputStream newStream() {
            return new SeekableInputStream() {
                private int position;

                @Override
                public long getPos() {
                    return position;
                }

                @Override
                public void seek(long newPos) {
                    position = (int) newPos;
                }

                @Override
                public int read() {
                    return position < data.length ? data[position++] & 0xff : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (position >= data.length) {
                        return -1;
                    }
                    int n = Math.min(len, data.length - position);
                    System.arraycopy(data, position, b, off, n);
                    position += n;
                    return n;
                }

                @Override
                public void readFully(byte[] bytes) throws IOException {
                    readFully(bytes, 0, bytes.length);
                }

                @Override
                public void readFully(byte[] bytes, int start, int len) throws IOException {
                    if (data.length - position < len) {
                        throw new java.io.EOFException("the file ends early");
                    }
                    System.arraycopy(data, position, bytes, start, len);
                    position += len;
                }

                @Override
                public int read(ByteBuffer buf) {
                    int n = Math.min(buf.remaining(), data.length - position);
                    if (n <= 0) {
                        return buf.remaining() == 0 ? 0 : -1;
                    }
                    buf.put(data, position, n);
                    position += n;
                    return n;
                }

                @Override
                public void readFully(ByteBuffer buf) throws IOException {
                    if (data.length - position < buf.remaining()) {
                        throw new java.io.EOFException("the file ends early");
                    }
                    read(buf);
                }
            };
        }
    }
}
