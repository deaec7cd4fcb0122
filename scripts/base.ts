import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { epochsOf, pushBase } from '../caster/src/base/pusher.ts';
import { MOUNTPOINT_PATTERN } from '../contract/src/catalogue.ts';

/**
 * `npm run base -- --file CAPTURE --mount MOUNTPOINT --password SOURCE_PASSWORD [--caster HOST:PORT] [--ntrip 2]
 * [--once]`: be a base station with a recorded RTCM 3 capture, sent to the caster as an NTRIP source at the pace of
 * its epochs, again and again, reconnecting when the caster drops it. Stop it with Ctrl-C.
 */
const usage =
  'usage: npm run base -- --file CAPTURE.rtcm3 --mount MOUNTPOINT --password SOURCE_PASSWORD [--caster HOST:PORT] [--ntrip 2] [--once]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(1);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      file: { type: 'string' },
      mount: { type: 'string' },
      password: { type: 'string' },
      caster: { type: 'string', default: '127.0.0.1:2101' },
      ntrip: { type: 'string', default: '1' },
      once: { type: 'boolean', default: false },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}
const file = typeof values.file === 'string' ? values.file : fail('--file is required');
const mountpoint = typeof values.mount === 'string' ? values.mount : fail('--mount is required');
const password = typeof values.password === 'string' ? values.password : fail('--password is required');
if (!MOUNTPOINT_PATTERN.test(mountpoint)) fail('--mount: letters, digits, _ and - only, at most 64 characters');
const caster = /^(.+):(\d{1,5})$/.exec(String(values.caster));
if (!caster) fail('--caster: HOST:PORT, e.g. 127.0.0.1:2101');
const version = values.ntrip === '2' ? 2 : values.ntrip === '1' ? 1 : fail('--ntrip: 1 or 2');

// npm runs scripts from the repository root; a relative path means where the command was typed.
const path = isAbsolute(file) ? file : resolve(process.env.INIT_CWD ?? process.cwd(), file);
let capture: Buffer;
try {
  capture = readFileSync(path);
} catch (err) {
  fail(`--file: cannot read ${path}: ${(err as Error).message}`);
}
const epochs = epochsOf(capture);
if (epochs.length === 0) fail(`--file: ${path} holds no valid RTCM 3 frames`);

const controller = new AbortController();
process.on('SIGINT', () => controller.abort());
process.on('SIGTERM', () => controller.abort());
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
log(`base station: ${path} → ${caster[1]}:${caster[2]}/${mountpoint}`);
await pushBase({
  host: caster[1] as string,
  port: Number(caster[2]),
  mountpoint,
  password,
  ntripVersion: version,
  epochs,
  loop: !values.once,
  // A capture recorded years ago is sent as if received now, so the demo's RINEX hours hold its data.
  retime: true,
  retrySeconds: 5,
  log,
  signal: controller.signal,
});
