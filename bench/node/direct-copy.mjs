// The reference of issue #21: a hand-written copier with Microsoft's JavaScript SDK (@azure/data-tables), to
// measure the client CPU a plain copy needs. Pages are read one after another (1,000 rows); each partition's
// rows go out as transactions of at most 100 upserts (replace), 16 in flight. It keeps no exactness promise
// (the SDK's default conversions: a DateTime as a JS Date, a whole Double as a number): CPU only.
//   TABLES_CONNECTION_STRING=... /usr/bin/time -f '%U+%S s' node bench/node/direct-copy.mjs SOURCE DEST
// many-tables.mjs imports copyTable to copy many tables one after another in one process.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(new URL('../../tools/azurite/package.json', import.meta.url));
const { TableClient } = require('@azure/data-tables');

/** Copies table sourceName into destName (created if missing); returns the rows copied. */
export async function copyTable(cs, sourceName, destName) {
  const options = { allowInsecureConnection: true };
  const source = TableClient.fromConnectionString(cs, sourceName, options);
  const dest = TableClient.fromConnectionString(cs, destName, options);
  await dest.createTable();

  const inFlight = new Set();
  const send = async (actions) => {
    while (inFlight.size >= 16) await Promise.race(inFlight);
    const p = dest.submitTransaction(actions).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  let rows = 0;
  for await (const page of source.listEntities().byPage({ maxPageSize: 1000 })) {
    let batch = [];
    for (const { etag, timestamp, ...entity } of page) {
      if (batch.length === 100 || (batch.length > 0 && batch[0][1].partitionKey !== entity.partitionKey)) {
        await send(batch);
        batch = [];
      }
      batch.push(['upsert', entity, 'Replace']);
      rows++;
    }
    if (batch.length > 0) await send(batch);
  }
  await Promise.all(inFlight);
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [sourceName, destName] = process.argv.slice(2);
  const cs = process.env.TABLES_CONNECTION_STRING;
  if (!sourceName || !destName || !cs) {
    console.error('usage: TABLES_CONNECTION_STRING=... node direct-copy.mjs SOURCE DEST');
    process.exit(2);
  }
  const start = Date.now();
  const rows = await copyTable(cs, sourceName, destName);
  console.log(`${rows} rows in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}
