/**
 * A process that archives one station until it is killed: a frame every 5 ms, numbered from the start number given,
 * through the caster's archive thread, stored every 50 ms; it prints how many frames the store has acknowledged
 * (`stored N`), so its parent knows what a kill must not lose.
 */

import { ArchiveThread } from '../../src/archive/index.ts';
import { encodeFrame } from '../../src/index.ts';

const [kind, where, first, hour] = process.argv.slice(2) as [string, string, string, string];
const silent = { info() {}, warn() {}, error() {} };
let stored = 0;
const archive = await ArchiveThread.start(
  {
    store:
      kind === 'nats'
        ? { kind: 'nats', url: process.env.CASTER_TEST_NATS_URL ?? 'nats://127.0.0.1:4222', bucket: where }
        : { kind: 'local', dir: where },
    flushMs: 50,
    indexFlushMs: 50,
    clock: () => Number(hour) + 1000,
    index: {
      recordHours: async (updates) => {
        for (const u of updates) stored += u.frames;
        process.stdout.write(`stored ${stored}\n`);
      },
    },
  },
  silent,
);
let n = Number(first);
setInterval(() => {
  const payload = Buffer.alloc(100);
  payload[0] = 0x43;
  payload[1] = 0x50;
  payload.writeUInt32BE(n++, 2);
  archive.frame('CRASH1', encodeFrame(payload), 1077);
}, 5);
