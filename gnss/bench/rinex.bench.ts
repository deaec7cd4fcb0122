/**
 * `npm run bench:rinex`: our RTCM 3 → RINEX 3.04 conversion against Debian rtklib's convbin on the same input in
 * the same run. The input is a day at 1 Hz of six constellations: the oem729 Hiroshima capture (60 epochs of
 * MSM7 of GPS, GLONASS, Galileo, QZSS, BeiDou and NavIC, and every ephemeris type) repeated with its times moved
 * on (bench/repeat-capture.ts), written to a temporary folder that is removed afterwards.
 *
 * Each program runs as a child under /usr/bin/time, which reports its wall time, CPU time (user + system) and peak
 * resident memory (for ours, of the larger of tsx's two processes):
 * - convbin as the issue prescribes: `convbin -r rtcm3 -tr … -v 3.04 -od -os -o X.obs -n X.nav X.rtcm3`;
 * - ours as `npm run -s rinex -- convert` runs it: the tsx CLI on the root package's rinex entry, start-up and
 *   TypeScript loading included (npm's own start-up, about half a second, is not);
 * - ours timed inside its process around convertRtcmToRinex (bench/convert-in-process.ts): the conversion alone;
 * - the same entry refusing a convert without input: the start-up alone.
 * Runs alternate between convbin and ours, round by round, and each output is counted (epochs, ephemerides) and
 * deleted before the next run. BENCH_HOURS (24) sets the length, BENCH_ROUNDS (1) the rounds, BENCH_DIR the
 * folder for the temporary files (the system's temporary folder; a day needs about 2.5 GB while it runs).
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repeatCapture } from './repeat-capture.ts';

const HOURS = Number(process.env.BENCH_HOURS ?? 24);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
if (!(HOURS > 0 && HOURS <= 24 * 4) || !(ROUNDS >= 1)) throw new Error('BENCH_HOURS: 1–96, BENCH_ROUNDS: 1 or more');
const CONVBIN = '/usr/bin/convbin';
const TIME = '2022/12/13 01:09:00';
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const CAPTURE = here('../test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3');
const ROOT = here('../..');
/** What `npm run rinex` runs: the root package's script is `tsx <entry>`. */
const CLI = await (async () => {
  const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const entry = /^tsx (\S+)$/.exec(scripts.rinex ?? '')?.[1];
  if (!entry) throw new Error(`the root package's rinex script is not "tsx <entry>": ${scripts.rinex}`);
  return join(ROOT, entry);
})();
const IN_PROCESS = here('./convert-in-process.ts');
const TSX_CLI = (() => {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { bin } = require('tsx/package.json') as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : (bin.tsx as string));
})();

interface Measure {
  wall: number;
  cpu: number;
  rssMb: number;
  stdout: string;
}

/** Runs a command under /usr/bin/time; its stderr is dropped (convbin reports progress there, line by line). */
function timed(dir: string, command: string[], okStatus = [0]): Promise<Measure> {
  const report = join(dir, 'time.txt');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', '-o', report, ...command], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', async (status) => {
      if (!okStatus.includes(status ?? -1)) {
        reject(new Error(`${command.join(' ')} exited with ${status}: ${stdout}`));
        return;
      }
      const [wall, user, system, rssKb] = (await readFile(report, 'utf8')).trim().split('\n').at(-1)?.split(' ') ?? [];
      resolve({ wall: Number(wall), cpu: Number(user) + Number(system), rssMb: Number(rssKb) / 1024, stdout });
    });
  });
}

/** Epoch records (lines starting with ">") of an observation file, read in chunks. */
async function countEpochs(path: string): Promise<number> {
  let count = 0;
  let atLineStart = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 }) as AsyncIterable<Buffer>) {
    if (atLineStart && chunk[0] === 0x3e) count++;
    for (let at = chunk.indexOf('\n>'); at >= 0; at = chunk.indexOf('\n>', at + 2)) count++;
    atLineStart = chunk[chunk.length - 1] === 0x0a;
  }
  return count;
}

/** Records of a navigation file: the lines that start with a satellite and an epoch. */
async function countEphemerides(path: string): Promise<number> {
  const text = await readFile(path, 'latin1');
  return text.slice(text.indexOf('END OF HEADER')).match(/^[GRECJIS]\d\d \d{4} /gm)?.length ?? 0;
}

async function outputs(obs: string, nav: string): Promise<string> {
  const [epochs, ephemerides, size] = [await countEpochs(obs), await countEphemerides(nav), (await stat(obs)).size];
  await rm(obs);
  await rm(nav);
  return `${epochs.toLocaleString('en')} epochs (${(size / 1e6).toFixed(0)} MB), ${ephemerides.toLocaleString('en')} ephemerides`;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
/** Load average, and the share of the last minute some task waited for a CPU (Linux pressure stall information). */
const load = () => {
  const average = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const pressure = existsSync('/proc/pressure/cpu')
    ? / avg60=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]
    : undefined;
  return pressure === undefined ? average : `${average}, CPU pressure ${pressure} %`;
};

async function main(): Promise<void> {
  if (!existsSync(CONVBIN)) throw new Error(`${CONVBIN} is missing: install Debian's rtklib package`);
  const dir = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'bench-rinex-'));
  try {
    const input = join(dir, 'day.rtcm3');
    const capture = await readFile(CAPTURE);
    const generating = performance.now();
    const out = createWriteStream(input);
    for (const copy of repeatCapture(capture, { copies: HOURS * 60, period: 60 })) {
      if (!out.write(copy)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const inputSize = (await stat(input)).size;
    console.log(`RINEX conversion bench: ${HOURS} h of 1 Hz RTCM 3, MSM7 of G R E J C I and every ephemeris type`);
    console.log(
      `input: ${(inputSize / 1e6).toFixed(1)} MB, ${HOURS * 60} copies of oem729 Hiroshima's 60 s moved on by 60 s each ` +
        `(${HOURS * 3600} epochs), generated in ${((performance.now() - generating) / 1000).toFixed(1)} s in ${dir}`,
    );
    console.log(`machine: ${availableParallelism()} CPUs, Node ${process.version}, load average at start ${load()}\n`);

    const results: Array<{ convbin: Measure; ours: Measure; inProcess: Measure & { json: Record<string, number> } }> =
      [];
    for (let round = 1; round <= ROUNDS; round++) {
      const obs = join(dir, 'out.obs');
      const nav = join(dir, 'out.nav');
      const runConvbin = async () => {
        const m = await timed(dir, [
          CONVBIN,
          '-r',
          'rtcm3',
          '-tr',
          TIME,
          '-v',
          '3.04',
          '-od',
          '-os',
          '-o',
          obs,
          '-n',
          nav,
          input,
        ]);
        return { m, what: await outputs(obs, nav) };
      };
      const runOurs = async () => {
        const m = await timed(dir, [
          process.execPath,
          TSX_CLI,
          CLI,
          'convert',
          input,
          '--time',
          TIME,
          '--obs',
          obs,
          '--nav',
          nav,
        ]);
        return { m, what: await outputs(obs, nav) };
      };
      // Alternate who goes first, so neither always finds the other's output still being written back.
      const first = round % 2 === 1 ? await runConvbin() : await runOurs();
      const second = round % 2 === 1 ? await runOurs() : await runConvbin();
      const [cb, ours] = round % 2 === 1 ? [first, second] : [second, first];
      const inProcess = await timed(dir, [process.execPath, '--import', 'tsx', IN_PROCESS, input, obs, nav, TIME]);
      await rm(obs);
      await rm(nav);
      const json = JSON.parse(inProcess.stdout) as Record<string, number>;
      results.push({ convbin: cb.m, ours: ours.m, inProcess: { ...inProcess, json } });

      console.log(`round ${round} of ${ROUNDS} (load average ${load()})`);
      console.log('| run | wall s | CPU s (user + system) | peak RSS MB | wrote |');
      console.log('|---|---:|---:|---:|---|');
      console.log(
        `| convbin (Debian rtklib 2.4.3 b34) | ${fmt(cb.m.wall)} | ${fmt(cb.m.cpu)} | ${fmt(cb.m.rssMb, 1)} | ${cb.what} |`,
      );
      console.log(
        `| ours: tsx ${relative(ROOT, CLI)} convert (as npm run -s rinex -- convert) | ${fmt(ours.m.wall)} | ${fmt(ours.m.cpu)} | ${fmt(ours.m.rssMb, 1)} | ${ours.what} |`,
      );
      console.log(
        `| ours: convertRtcmToRinex alone, timed in its process | ${fmt(json.wallSeconds as number)} | ` +
          `${fmt(json.cpuSeconds as number)} | ${fmt(json.peakRssMb as number, 1)} (process) | ` +
          `${(json.epochs as number).toLocaleString('en')} epochs, ${json.navRecords} ephemerides |`,
      );
      console.log(
        `ratio ours / convbin: CPU ${fmt(ours.m.cpu / cb.m.cpu)} (${fmt((json.cpuSeconds as number) / cb.m.cpu)} ` +
          `without start-up), wall ${fmt(ours.m.wall / cb.m.wall)} (${fmt((json.wallSeconds as number) / cb.m.wall)})\n`,
      );
    }

    const startup = await timed(dir, [process.execPath, TSX_CLI, CLI, 'convert'], [2]);
    console.log(
      `start-up alone (the same command without input, refused with its usage): ${fmt(startup.wall)} s wall, ${fmt(startup.cpu)} s CPU, ` +
        `${fmt(startup.rssMb, 1)} MB peak RSS`,
    );
    const worst = (pick: (r: (typeof results)[number]) => number) => Math.max(...results.map(pick));
    const cpuRatio = worst((r) => r.ours.cpu / r.convbin.cpu);
    const wallRatio = worst((r) => r.ours.wall / r.convbin.wall);
    const rss = worst((r) => r.ours.rssMb);
    console.log(
      `targets: time ≤ 1.0 × convbin's: CPU ${fmt(cpuRatio)}, wall ${fmt(wallRatio)} (worst round) ` +
        `${cpuRatio <= 1 && wallRatio <= 1 ? 'met' : 'NOT met'}; peak RSS < 150 MB: ${fmt(rss, 1)} MB ` +
        `${rss < 150 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
