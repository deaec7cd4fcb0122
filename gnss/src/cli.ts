/**
 * `npm run -s rinex -- convert IN.rtcm3 --time ISO --obs OUT.obs [--nav OUT.nav] [--interval 30] [--systems GREC]`
 * for operators and for checking against convbin. Exit status: 0 done, 1 the input cannot be converted, 2 usage.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConversionError, convertRtcmToRinex, fileSource, INTERVALS } from './convert.ts';
import type { BeidouTimeTag } from './obs/decoder.ts';
import { type GpsTime, gpstToCalendar, parseApproxTime } from './time.ts';

export const USAGE = `usage: rinex convert IN.rtcm3 --time TIME (--obs OUT.obs | --nav OUT.nav | both) [options]

  --time TIME        approximate time of the data, fixes the GPS week like convbin's -tr:
                     ISO 8601 UTC (2022-12-13T01:09:00Z) or convbin's GPST form ("2022/12/13 01:09:00")
  --obs FILE         RINEX 3.04 observation file to write (.gz: gzip-compressed)
  --nav FILE         RINEX 3.04 navigation file to write (.gz: gzip-compressed)
  --interval S       write only epochs on multiples of S seconds: ${INTERVALS.join(', ')}
  --systems LETTERS  constellations, e.g. GREC (G R E J S C I; default all)
  --from TIME        first epoch to write (inclusive), same forms as --time
  --to TIME          end of the epochs to write (exclusive)
  --marker NAME      MARKER NAME (default: the RTCM station ID)
  --gzip             compress both outputs
  --beidou-time T    auto (default), bdt or gpst: how the receiver tags BeiDou MSM epochs
`;

class UsageError extends Error {}

/** Relative paths mean the folder npm was started in (INIT_CWD), not the workspace npm runs the script in. */
function path(p: string): string {
  return isAbsolute(p) ? p : resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

function time(text: string | undefined, option: string): GpsTime | undefined {
  if (text === undefined) return undefined;
  const t = parseApproxTime(text);
  if (!t) throw new UsageError(`${option}: "${text}" is not a time (2022-12-13T01:09:00Z or "2022/12/13 01:09:00")`);
  return t;
}

function show(t: GpsTime): string {
  const c = gpstToCalendar(t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${c.year}-${p(c.month)}-${p(c.day)} ${p(c.hour)}:${p(c.minute)}:${c.second.toFixed(3).padStart(6, '0')} GPST`;
}

async function convert(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      time: { type: 'string' },
      obs: { type: 'string' },
      nav: { type: 'string' },
      interval: { type: 'string' },
      systems: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      marker: { type: 'string' },
      gzip: { type: 'boolean' },
      'beidou-time': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('give exactly one input file');
  const approxTime = time(values.time, '--time');
  if (!approxTime) throw new UsageError('--time is required: it fixes the GPS week (the wall clock is never used)');
  if (!values.obs && !values.nav) throw new UsageError('give --obs and/or --nav');
  let interval: number | undefined;
  if (values.interval !== undefined) {
    interval = Number(values.interval);
    if (!(INTERVALS as readonly number[]).includes(interval)) {
      throw new UsageError(`--interval must be one of ${INTERVALS.join(', ')}`);
    }
  }
  const beidou = values['beidou-time'];
  if (beidou !== undefined && !['auto', 'bdt', 'gpst'].includes(beidou)) {
    throw new UsageError('--beidou-time must be auto, bdt or gpst');
  }
  const input = path(positionals[0] as string);
  const result = await convertRtcmToRinex({
    input: fileSource(input),
    approxTime,
    interval,
    systems: values.systems,
    window: { start: time(values.from, '--from'), end: time(values.to, '--to') },
    obsOut: values.obs === undefined ? undefined : path(values.obs),
    navOut: values.nav === undefined ? undefined : path(values.nav),
    gzip: values.gzip,
    marker: values.marker,
    beidouTime: beidou as BeidouTimeTag | undefined,
  });
  if (values.obs) {
    out(`${values.obs}: ${result.epochs} epochs, ${show(result.firstEpoch)} to ${show(result.lastEpoch)}`);
  }
  if (values.nav) out(`${values.nav}: ${result.navRecords} ephemerides`);
  for (const w of result.warnings) out(`note: ${w}`);
  return 0;
}

/** Runs one command; returns the exit status. Messages go to `out` (results) and `err` (problems). */
export async function runCli(
  argv: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'convert') return await convert(rest, out);
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE'))) {
      err(`rinex: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof ConversionError) {
      err(`rinex: ${e.message}${e.code === 'bad_option' ? `\n\n${USAGE}` : ''}`);
      return e.code === 'bad_option' ? 2 : 1;
    }
    if (e instanceof Error && 'code' in e && typeof e.code === 'string' && 'path' in e) {
      err(`rinex: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
