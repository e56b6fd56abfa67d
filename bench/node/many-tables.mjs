// Many small tables, with Microsoft's JavaScript SDK (@azure/data-tables): the reference for a backup set of many
// tables (bench/many-tables.sh runs it). Tables are PREFIX001 to PREFIX<COUNT>.
//   seed SOURCE PREFIX COUNT   copy SOURCE's rows into each table (types kept), 4 tables at a time
//   copy PREFIX COUNT TO       the hand-written copier (direct-copy.mjs) over the tables one after another,
//                              table T into TO + T
//   export PREFIX COUNT DIR    a hand-written exporter: each table, one after another, paged serially into
//                              DIR/T.jsonl.gz, one entity a line (its properties with their EDM types)
//   drop PREFIX COUNT          delete the tables
// TABLES_CONNECTION_STRING names the account.
import { createRequire } from 'node:module';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { copyTable } from './direct-copy.mjs';

const require = createRequire(new URL('../../tools/azurite/package.json', import.meta.url));
const { TableClient } = require('@azure/data-tables');

const [mode, first, second, third] = process.argv.slice(2);
const cs = process.env.TABLES_CONNECTION_STRING;
if (!cs || !['seed', 'copy', 'export', 'drop'].includes(mode)) {
  console.error('usage: TABLES_CONNECTION_STRING=... node many-tables.mjs seed|copy|export|drop ...');
  process.exit(2);
}
const options = { allowInsecureConnection: true };
const client = (name) => TableClient.fromConnectionString(cs, name, options);
const names = (prefix, count) => Array.from({ length: Number(count) }, (_, i) => prefix + String(i + 1).padStart(3, '0'));
const start = Date.now();
let rows = 0;

async function seedOne(name, entities) {
  const table = client(name);
  await table.createTable();
  const inFlight = new Set();
  let batch = [];
  const flush = async () => {
    while (inFlight.size >= 16) await Promise.race(inFlight);
    const p = table.submitTransaction(batch).finally(() => inFlight.delete(p));
    inFlight.add(p);
    batch = [];
  };
  for (const entity of entities) {
    if (batch.length === 100 || (batch.length > 0 && batch[0][1].partitionKey !== entity.partitionKey)) await flush();
    batch.push(['upsert', entity, 'Replace']);
  }
  if (batch.length > 0) await flush();
  await Promise.all(inFlight);
}

async function exportOne(name, dir) {
  const table = client(name);
  async function* lines() {
    for await (const page of table.listEntities({ disableTypeConversion: true }).byPage({ maxPageSize: 1000 })) {
      let text = '';
      for (const { etag, ...entity } of page) {
        text += JSON.stringify(entity) + '\n';
        rows++;
      }
      yield text;
    }
  }
  await pipeline(Readable.from(lines()), createGzip(), createWriteStream(`${dir}/${name}.jsonl.gz`));
}

if (mode === 'seed') {
  const entities = [];
  for await (const { etag, timestamp, ...entity } of client(first).listEntities({ disableTypeConversion: true })) {
    entities.push(entity);
  }
  const todo = names(second, third);
  const workers = Array.from({ length: 4 }, async () => {
    for (let name = todo.shift(); name; name = todo.shift()) await seedOne(name, entities);
  });
  await Promise.all(workers);
  rows = entities.length * Number(third);
} else if (mode === 'copy') {
  for (const name of names(first, second)) rows += await copyTable(cs, name, third + name);
} else if (mode === 'export') {
  await mkdir(third, { recursive: true });
  for (const name of names(first, second)) await exportOne(name, third);
} else {
  for (const name of names(first, second)) await client(name).deleteTable();
}
console.log(`${mode}: ${rows} rows in ${((Date.now() - start) / 1000).toFixed(1)} s`);
