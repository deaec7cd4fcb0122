import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validFrames } from '@portal/caster';
import { type ArchiveStore, localArchiveStore } from '@portal/caster/archive';
import { frameMessageType, framePayload } from '@portal/gnss';
import yauzl from 'yauzl';
import { until } from '../../../caster/test/support/wait.ts';
import { decodeStationMessage, emptyStation } from '../../../gnss/src/station.ts';
import { setPushFeed } from '../../src/cli/operator-actions.ts';
import type { Database } from '../../src/db/client.ts';
import { startTestCaster, TEST_FEED_KEY } from './caster.ts';

const silent = { info() {}, warn() {}, error() {} };

/** A real base-station capture (NovAtel OEM729, Hiroshima, 2022-12-13 01:09:22–01:10:21 GPST at 1 Hz, with 1005). */
export const HIROSHIMA = new URL(
  '../../../gnss/test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3',
  import.meta.url,
).pathname;
/** Its hour, and when its first frame arrived as if live (the archive files frames by arrival). */
export const HIROSHIMA_HOUR = Date.parse('2022-12-13T01:00:00Z');
export const HIROSHIMA_ARRIVAL = Date.parse('2022-12-13T01:09:05Z');
/** Its observation epochs. */
export const HIROSHIMA_EPOCHS = 60;

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export function testArchiveStore(dir: string): ArchiveStore {
  return localArchiveStore(dir, silent);
}

/**
 * Pushes a capture through the portal's caster as the station's NTRIP source, archived into `store` with the
 * archive's clock starting at `arrival` (the capture arrives as if live), and waits until its hour is indexed.
 */
export async function pushCaptureThroughCaster(
  db: Database,
  store: ArchiveStore,
  options: { mountpoint: string; capture: string; arrival: number; hour: number },
): Promise<void> {
  const capture = readFileSync(options.capture);
  const started = Date.now();
  const service = await startTestCaster(db, {
    archive: {
      store: store.spec,
      flushMs: 100,
      indexFlushMs: 100,
      clock: () => options.arrival + (Date.now() - started),
    },
  });
  await setPushFeed(db, { mountpoint: options.mountpoint, password: 'rinex-source' }, TEST_FEED_KEY);
  const frames = validFrames(capture).length;
  try {
    const source = net.connect({ port: service.port, host: '127.0.0.1' });
    source.on('error', () => {});
    source.write(`SOURCE rinex-source /${options.mountpoint}\r\n\r\n`);
    await new Promise((resolve) => source.once('data', resolve));
    source.write(capture);
    await until(
      async () => {
        const row = await db
          .selectFrom('archive_hours')
          .select('frames')
          .where('mountpoint', '=', options.mountpoint)
          .where('hour', '=', new Date(options.hour))
          .executeTakeFirst();
        return Number(row?.frames ?? 0) >= frames;
      },
      `the capture to reach the archive index (${frames} frames)`,
      15_000,
      50,
    );
    source.destroy();
  } finally {
    await service.close();
  }
}

/** The station position (ARP, ECEF metres) of a capture's first 1005/1006 message. */
export function capturePosition(path: string): [number, number, number] {
  const info = emptyStation();
  for (const frame of validFrames(readFileSync(path))) {
    const type = frameMessageType(frame);
    if (type === 1005 || type === 1006) decodeStationMessage(framePayload(frame), info);
    if (info.arp) return info.arp;
  }
  throw new Error(`${path} has no 1005/1006 message`);
}

/** Every file of a zip, by name. */
export function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(data, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A RINEX observation file's header records by label (the first of each), and its epoch count. */
export function readObservationFile(text: string): { header: Map<string, string>; epochs: number } {
  const lines = text.split('\n');
  const header = new Map<string, string>();
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const label = line.slice(60).trim();
    if (!header.has(label)) header.set(label, line.slice(0, 60));
    if (label === 'END OF HEADER') break;
  }
  const epochs = lines.slice(i + 1).filter((l) => l.startsWith('>')).length;
  return { header, epochs };
}
