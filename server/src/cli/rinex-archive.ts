/**
 * `npm run -s rinex -- archive --station MOUNT --from ISO --to ISO --out DIR`: RINEX 3.04 observation and
 * navigation files of a station's archived hours, on the configured database and archive store. The hours stream
 * from the store into the converter (memory does not grow with the window); the GPS week comes from the archive's
 * own hour. Exit status: 0 done, 1 nothing to convert (unknown station, no data, damaged input), 2 usage.
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from '@portal/caster';
import { type HourDamage, hourLabel, readArchiveHours } from '@portal/caster/archive';
import {
  ConversionError,
  convertRtcmToRinex,
  type GpsTime,
  gpstToCalendar,
  INTERVALS,
  rinexObsFileName,
  utcToGpst,
} from '@portal/gnss';
import { archiveStoreOf, type Config, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { PgliteInUseError } from '../db/pglite-lock.ts';
import {
  type ArchiveSelection,
  parseArchiveSelection,
  selectArchiveHours,
} from '../modules/archive/archive.selection.ts';
import { openArchiveStore } from '../modules/archive/index.ts';
import { askRunningPortal } from './control-socket.ts';

export const ARCHIVE_USAGE = `usage: rinex archive --station MOUNT --from TIME --to TIME --out DIR [options]

  --station MOUNT    the station's mountpoint (any case)
  --from TIME        first epoch (inclusive), ISO 8601 with a zone: 2026-11-24T10:00:00Z
  --to TIME          end of the epochs (exclusive), same form
  --out DIR          folder for the observation and navigation files (RINEX 3 long names), made if missing
  --interval S       write only epochs on multiples of S seconds: ${INTERVALS.join(', ')} (default: every epoch)
  --systems LETTERS  constellations, e.g. GREC (G R E J S C I; default all)
  --gzip             compress both files
`;

class UsageError extends Error {}

type Systems = Parameters<typeof rinexObsFileName>[0]['systems'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function instant(text: string | undefined, option: string): number {
  if (text === undefined) throw new UsageError(`${option} is required`);
  const ms = ISO.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new UsageError(`${option}: "${text}" is not an ISO 8601 time with a zone`);
  return ms;
}

/** Relative paths mean the folder npm was started in (INIT_CWD), like every path the portal is given. */
const fromCwd = (p: string) => (isAbsolute(p) ? p : resolve(process.env.INIT_CWD ?? process.cwd(), p));

function show(t: GpsTime): string {
  const c = gpstToCalendar(t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${c.year}-${p(c.month)}-${p(c.day)} ${p(c.hour)}:${p(c.minute)}:${c.second.toFixed(3).padStart(6, '0')} GPST`;
}

/** The hours to read, from the database, or from the running portal when it owns the PGlite directory. */
async function select(config: Config, station: string, from: number, to: number): Promise<ArchiveSelection | string> {
  try {
    const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
    try {
      const selection = await selectArchiveHours(handle.db, station, new Date(from), new Date(to));
      return selection ?? `No station with mountpoint '${station}' in the catalogue.`;
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (!(err instanceof PgliteInUseError)) throw err;
    const answer = await askRunningPortal(config.PGLITE_DATA_DIR, {
      command: 'archive-hours',
      station,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
    });
    if (!answer) return err.message;
    if (answer.err.length) return answer.err.join('\n');
    return parseArchiveSelection(answer.out) ?? 'The running portal gave an answer this command does not understand.';
  }
}

export interface ArchiveCommandOptions {
  config?: Config;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/** Runs `rinex archive`; returns the exit status. */
export async function runArchiveCommand(args: string[], options: ArchiveCommandOptions = {}): Promise<number> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  let values: ReturnType<typeof parse>['values'];
  let from: number;
  let to: number;
  let interval: number | undefined;
  try {
    values = parse(args).values;
    from = instant(values.from, '--from');
    to = instant(values.to, '--to');
    if (to <= from) throw new UsageError('--to must be after --from');
    if (!values.station) throw new UsageError('--station is required');
    if (!values.out) throw new UsageError('--out is required');
    if (values.interval !== undefined) {
      interval = Number(values.interval);
      if (!(INTERVALS as readonly number[]).includes(interval)) {
        throw new UsageError(`--interval must be one of ${INTERVALS.join(', ')}`);
      }
    }
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e)) {
      err(`rinex: ${e.message}\n\n${ARCHIVE_USAGE}`);
      return 2;
    }
    throw e;
  }
  const config = options.config ?? loadConfig();
  if (archiveStoreOf(config) === 'off') {
    err('rinex: the archive is off (ARCHIVE_STORE=off): there is nothing to convert');
    return 1;
  }
  const selection = await select(config, values.station, from, to);
  if (typeof selection === 'string') {
    err(`rinex: ${selection}`);
    return 1;
  }
  const { station, keys } = selection;
  const logger: Logger = { info() {}, warn() {}, error: (_, message) => err(`rinex: ${message}`) };
  const store = await openArchiveStore(config, logger);
  if (!store) return 1;
  const damage: HourDamage[] = [];
  let bytes = 0;
  try {
    const dir = fromCwd(values.out);
    await mkdir(dir, { recursive: true });
    const systems = values.systems ? ([...values.systems.toUpperCase()] as Systems) : undefined;
    const name = (kind: 'O' | 'N') =>
      join(
        dir,
        rinexObsFileName({
          station: station.mountpoint,
          country: station.country,
          start: new Date(from),
          period: (to - from) / 1000,
          interval: interval ?? 1,
          kind,
          systems,
          source: 'S',
          gzip: values.gzip,
        }),
      );
    const obsOut = name('O');
    const navOut = name('N');
    const result = await convertRtcmToRinex({
      input: async function* () {
        damage.length = 0;
        for await (const part of readArchiveHours(store, keys, (d) => damage.push(d))) {
          bytes += part.length;
          yield part;
        }
      },
      // The archive's own hour fixes the GPS week; the wall clock is never used.
      approxTime: utcToGpst((keys[0] ?? { hour: from }).hour),
      interval,
      systems: values.systems,
      window: { start: utcToGpst(from), end: utcToGpst(to) },
      obsOut,
      navOut,
      gzip: values.gzip,
      marker: station.mountpoint,
    });
    out(`${obsOut}: ${result.epochs} epochs, ${show(result.firstEpoch)} to ${show(result.lastEpoch)}`);
    out(`${navOut}: ${result.navRecords} ephemerides`);
    for (const w of result.warnings) out(`note: ${w}`);
    for (const d of damage) {
      out(`note: ${d.mountpoint} ${hourLabel(d.hour)}: ${d.bytes} damaged bytes skipped (${d.kind}) at ${d.offset}`);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof ConversionError)) throw e;
    if (bytes === 0) {
      const span = `${new Date(from).toISOString()} to ${new Date(to).toISOString()}`;
      err(`rinex: the archive has no data of ${station.mountpoint} from ${span}`);
    } else err(`rinex: ${e.message}`);
    return e.code === 'bad_option' ? 2 : 1;
  } finally {
    await store.close();
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    options: {
      station: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      out: { type: 'string' },
      interval: { type: 'string' },
      systems: { type: 'string' },
      gzip: { type: 'boolean' },
    },
  });
}
