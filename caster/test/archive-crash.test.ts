import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ArchiveDamage,
  type ArchiveStore,
  localArchiveStore,
  natsArchiveStore,
  readArchive,
} from '../src/archive/index.ts';
import { validFrames } from '../src/index.ts';

const NATS_URL = process.env.CASTER_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const HOUR = Date.UTC(2026, 10, 24, 10);
const child = fileURLToPath(new URL('./support/archive-child.ts', import.meta.url));
const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Starts an archiving process and kills it with SIGKILL once it reports at least `atLeast` stored frames. */
async function archiveUntilKilled(kind: string, where: string, first: number, atLeast: number): Promise<number> {
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', child, kind, where, String(first), String(HOUR)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stored = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child stored only ${stored} frames`)), 20_000);
    proc.stdout?.on('data', (chunk: Buffer) => {
      const last = /stored (\d+)\n$/.exec(chunk.toString());
      if (last) stored = Number(last[1]);
      if (stored >= atLeast) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => reject(new Error(`child exited early with ${code}`)));
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
  return stored;
}

async function readBack(store: ArchiveStore) {
  const damage: ArchiveDamage[] = [];
  const parts: Buffer[] = [];
  for await (const part of readArchive(store, 'CRASH1', HOUR, HOUR + 1, (d) => damage.push(d))) parts.push(part);
  const numbers = validFrames(Buffer.concat(parts)).map((f) => f.readUInt32BE(5));
  return { numbers, damage };
}

const run = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

const stores: Array<{ kind: string; open: () => Promise<{ where: string; store: () => Promise<ArchiveStore> }> }> = [
  {
    kind: 'local',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'archive-crash-'));
      cleanup.push(() => rm(dir, { recursive: true, force: true }));
      return { where: dir, store: async () => localArchiveStore(dir, { info() {}, warn() {}, error() {} }) };
    },
  },
  {
    kind: 'nats',
    open: async () => {
      const bucket = `test-archive-${randomUUID()}`;
      cleanup.push(async () => {
        const nc = await connect({ servers: NATS_URL });
        const jsm = await nc.jetstreamManager();
        for (const stream of [`OBJ_${bucket}`, `ARCHIVE_TAIL_${bucket}`])
          await jsm.streams.delete(stream).catch(() => 0);
        await nc.close();
      });
      return { where: bucket, store: () => natsArchiveStore({ url: NATS_URL, bucket }) };
    },
  },
];

describe('an archiving process killed with SIGKILL', () => {
  for (const { kind, open } of stores) {
    it(`loses nothing it reported stored and corrupts nothing before it (${kind})`, async () => {
      const { where, store: openStore } = await open();
      const stored = await archiveUntilKilled(kind, where, 0, 40);
      const store = await openStore();
      cleanup.push(() => store.close());
      const first = await readBack(store);
      // Frames numbered from 0 without a gap: at least what the store had acknowledged, at most a flush more.
      expect(first.numbers.length).toBeGreaterThanOrEqual(stored);
      expect(first.numbers).toEqual(run(0, first.numbers.length));
      expect(first.damage.filter((d) => d.kind !== 'truncated')).toEqual([]);

      // The restarted process continues the same hour after what survived.
      const restored = await archiveUntilKilled(kind, where, 100_000, 20);
      const second = await readBack(store);
      const continued = second.numbers.slice(first.numbers.length);
      expect(second.numbers.slice(0, first.numbers.length)).toEqual(first.numbers);
      expect(continued.length).toBeGreaterThanOrEqual(restored);
      expect(continued).toEqual(run(100_000, continued.length));
      expect(second.damage.filter((d) => d.kind !== 'truncated')).toEqual([]);
    });
  }
});
