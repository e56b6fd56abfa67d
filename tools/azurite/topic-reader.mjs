// A consumer of tablescan's --to-topic records that is not Java: KafkaJS, the most used Node client, which has
// no LZ4 codec of its own. It reads every record of a topic as a read_committed consumer (readUncommitted: false)
// up to the end each partition has when it starts, and prints one JSON line per record:
//   node topic-reader.mjs BOOTSTRAP TOPIC     {"partition":0,"key":"[\"pk\",\"rk\"]","value":"{...}","scanId":"scan-..."}
// It fails (exit 1) on a record it cannot decode or when the end is not reached within 120 s.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');

const [bootstrap, topic] = process.argv.slice(2);
if (!bootstrap || !topic) {
  console.error('usage: node topic-reader.mjs BOOTSTRAP TOPIC');
  process.exit(2);
}
const kafka = new Kafka({ clientId: 'topic-reader', brokers: bootstrap.split(','), logLevel: logLevel.ERROR });
const admin = kafka.admin();
await admin.connect();
const ends = await admin.fetchTopicOffsets(topic);
await admin.disconnect();
// Partitions still to read to their end: the last offset before the high watermark each has now (the last offsets
// can be transaction markers).
const lastOffsets = new Map(ends.filter((p) => p.high !== p.low).map((p) => [p.partition, BigInt(p.high) - 1n]));
const pending = new Set(lastOffsets.keys());

const consumer = kafka.consumer({ groupId: `topic-reader-${process.pid}-${Date.now()}`, readUncommitted: false });
const deadline = setTimeout(() => {
  console.error(`topic-reader: partitions ${[...pending].join(', ')} of ${topic} not read to their end in 120 s`);
  process.exit(1);
}, 120_000);
let finish;
const finished = new Promise((resolve) => { finish = resolve; });
if (pending.size === 0) finish();
// A batch's end, also of one that held only a transaction's commit marker (fetched alone, it reaches no eachBatch):
// its partition is read once the batch reaches the last offset it had at the start.
consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
  const last = lastOffsets.get(payload.partition);
  if (last !== undefined && payload.lastOffset !== null && BigInt(payload.lastOffset) >= last) {
    pending.delete(payload.partition);
    if (pending.size === 0) finish();
  }
});
await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
await consumer.run({
  eachBatch: async ({ batch, resolveOffset }) => {
    for (const message of batch.messages) {
      const scanId = message.headers.scanId === undefined ? null : message.headers.scanId.toString();
      process.stdout.write(JSON.stringify({ partition: batch.partition, key: message.key.toString(),
        value: message.value.toString(), scanId }) + '\n');
      resolveOffset(message.offset);
    }
  },
});
await finished;
clearTimeout(deadline);
await consumer.disconnect();
