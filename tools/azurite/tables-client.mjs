// An independent client for tablescan's exactness tests: Microsoft's JavaScript SDK (@azure/data-tables),
// not the Java SDK that tablescan uses. It writes tables and reads them back as the service sends them.
//   TABLES_CONNECTION_STRING=... node tables-client.mjs fill TABLE    every EDM type and edge value, odd keys
//   TABLES_CONNECTION_STRING=... node tables-client.mjs dump TABLE    one JSON line per row, in key order
//   TABLES_CONNECTION_STRING=... node tables-client.mjs put TABLE JSON   merges one entity's properties as given
//   TABLES_CONNECTION_STRING=... node tables-client.mjs delete TABLE JSON   deletes the row {"partitionKey","rowKey"}
//   TABLES_CONNECTION_STRING=... node tables-client.mjs timestamps TABLE   each row's Timestamp as the service sends it
// A dumped row holds every property twice: as the SDK reads it with disableTypeConversion ("sdk": type and
// value as strings) and as the raw response JSON holds it ("raw": the @odata.type annotation or null, and
// the literal: numbers keep their text, so -0.0 and 2.0 are not 0 and 2). Timestamp and ETag are left out.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { TableClient } = require('@azure/data-tables');
const { parse, isLosslessNumber } = require('lossless-json');

const [command, table, json] = process.argv.slice(2);
const connectionString = process.env.TABLES_CONNECTION_STRING;
if (!command || !table || !connectionString) {
  console.error('usage: TABLES_CONNECTION_STRING=... node tables-client.mjs fill|dump|put|delete|timestamps TABLE [JSON]');
  process.exit(2);
}
const client = TableClient.fromConnectionString(connectionString, table, { allowInsecureConnection: true });

const dateTimes = ['1601-01-01T00:00:00.0000000Z', '9999-12-31T23:59:59.9999999Z', '2013-01-10T08:10:28.0000558Z',
  '2015-03-12T00:12:20.0000560Z', '2020-02-29T12:00:00.0000000Z', '1970-01-01T00:00:00.0000000Z',
  '1969-12-31T23:59:59.9999999Z', '2024-06-30T23:59:59.1000000Z'];
const otherDateTimes = ['1601-01-01T00:00:00Z', '2024-06-30T23:59:59.1Z', '2020-02-29T12:00:00.000Z'];
const int64s = ['9223372036854775807', '-9223372036854775808', '0', '-1', '9007199254740993'];
const int32s = [2147483647, -2147483648, 0, -1];
const doubles = ['NaN', 'Infinity', '-Infinity', '-0', '2', '1.7976931348623157E308', '4.9E-324',
  '2.2250738585072014E-308', '0.30000000000000004', '0.3333333333333333', '123456789012345680000', '-2.5', '1e-7'];
const guids = ['c9da6455-213d-42c9-9a79-3e9149a57833', '00000000-0000-0000-0000-000000000000'];
const every = 'plain \'quoted\' "double" \\ / \n\t\u0001 é 中文 \u0301 \uD83D\uDE00 \uDBFF\uDFFD \uFFFD end';
const strings = ['', every, 'x'.repeat(32767), '\uD83D\uDE00'.repeat(16000)];
const binaries = [new Uint8Array([0, 1, 127, 128, 255]), new Uint8Array(65536).map((_, i) => (i * 31) & 255),
  new Uint8Array([0xfb, 0xff])];
const keys = ['', 'it\'s', 'a', 'a\uFFFF', 'b', 'b b', 'p\uD83D\uDE00', 'zz', '~', '\u00e9t\u00e9'];

/** The entity of row i of partition p: each row takes the next edge value of every type. */
function entity(partitionKey, rowKey, i) {
  const pick = (values) => values[i % values.length];
  const e = {
    partitionKey, rowKey,
    When: { value: pick(dateTimes), type: 'DateTime' },
    Big: { value: pick(int64s), type: 'Int64' },
    Small: pick(int32s),
    Real: { value: pick(doubles), type: 'Double' },
    Id: { value: pick(guids), type: 'Guid' },
    Flag: i % 2 === 0,
    Text: pick(strings),
    Bytes: pick(binaries),
  };
  // Texts the service accepts from other clients but that are not the canonical form (no or fewer fraction
  // digits, an upper-case Guid, an Int64 with leading zeros): a copy must keep them as they are.
  if (i % 5 === 2) {
    e.Other = { value: pick(otherDateTimes), type: 'DateTime' };
    e.OtherId = { value: 'C9DA6455-213D-42C9-9A79-3E9149A57833', type: 'Guid' };
    e.OtherBig = { value: '0042', type: 'Int64' };
  }
  // A row with every DateTime and double at once, so one page holds them all.
  if (i === 0) {
    dateTimes.forEach((v, k) => { e[`When${k}`] = { value: v, type: 'DateTime' }; });
    doubles.forEach((v, k) => { e[`Real${k}`] = { value: v, type: 'Double' }; });
    e.Computed = 0.1 + 0.2;
  }
  return e;
}

async function fill() {
  await client.createTable();
  let n = 0;
  for (const [p, partitionKey] of keys.entries()) {
    const rows = 1 + (p * 3) % 13;
    for (let r = 0; r < rows; r++) {
      const rowKey = `${r}`.padStart(3, '0') + (r % 4 === 1 ? '\'q' : '');
      await client.upsertEntity(entity(partitionKey, rowKey, n++), 'Replace');
    }
  }
  console.log(`filled ${table} with ${n} rows`);
}

function literal(value) {
  if (isLosslessNumber(value)) return value.value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// `dump T | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

async function dump() {
  const raw = new Map();
  client.pipeline.addPolicy({
    name: 'rawBodies',
    sendRequest: async (request, next) => {
      const response = await next(request);
      if (request.method === 'GET' && response.status === 200) {
        for (const e of parse(response.bodyAsText).value) raw.set(`${e.PartitionKey}\u0000${e.RowKey}`, e);
      }
      return response;
    },
  });
  const rows = [];
  for await (const e of client.listEntities({ queryOptions: {}, disableTypeConversion: true })) {
    const sdk = {};
    for (const name of Object.keys(e).sort()) {
      if (['etag', 'partitionKey', 'rowKey', 'timestamp'].includes(name)) continue;
      sdk[name] = [e[name].type, e[name].value];
    }
    const body = raw.get(`${e.partitionKey}\u0000${e.rowKey}`);
    const rawProps = {};
    for (const name of Object.keys(body).sort()) {
      if (name.startsWith('odata.') || name.endsWith('@odata.type') || ['PartitionKey', 'RowKey', 'Timestamp'].includes(name)) continue;
      rawProps[name] = [body[`${name}@odata.type`] ?? null, literal(body[name])];
    }
    rows.push(JSON.stringify({ pk: e.partitionKey, rk: e.rowKey, sdk, raw: rawProps }));
  }
  process.stdout.write(rows.map((r) => r + '\n').join(''));
}

async function put() {
  await client.upsertEntity(JSON.parse(json), 'Merge');
}

async function remove() {
  const { partitionKey, rowKey } = JSON.parse(json);
  await client.deleteEntity(partitionKey, rowKey);
}

// The service's Timestamp of every row, as its raw JSON holds it: one {"pk","rk","timestamp"} line a row.
async function timestamps() {
  const lines = [];
  for await (const page of client.listEntities({ queryOptions: { select: ['PartitionKey', 'RowKey', 'Timestamp'] } }).byPage()) {
    for (const e of page) lines.push(JSON.stringify({ pk: e.partitionKey, rk: e.rowKey, timestamp: e.timestamp }));
  }
  process.stdout.write(lines.map((l) => l + '\n').join(''));
}

const commands = { fill, dump, put, delete: remove, timestamps };
if (!commands[command]) {
  console.error(`unknown command ${command}: fill, dump, put, delete or timestamps`);
  process.exit(2);
}
await commands[command]();
