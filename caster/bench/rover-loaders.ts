import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The bench's two load generators behind one interface. Each opens its share of rovers (alternately NTRIP 1 and
 * NTRIP 2), cuts frames by their length field and records receive time minus the send time stamped in the frame.
 * On the bench's machine the rovers share the caster's cores, so every microsecond a rover spends reading is a
 * microsecond the caster may wait for; the C one (rover-load.c) reads the same streams for a fraction of the Node
 * one's CPU (rover-load.ts).
 */

export interface LoadReport {
  /** Per frame received since `measure`: the send time stamped in it, and its delay (ms, monotonic clock). */
  sentAt: Float64Array;
  delays: Float64Array;
  frames: number;
  disconnected: number;
  cpuMicros: number;
}

type LoadNumbers = Omit<LoadReport, 'sentAt' | 'delays'>;

/** Both generators report [send time, delay] pairs. */
function unpair(pairs: Float64Array): Pick<LoadReport, 'sentAt' | 'delays'> {
  const sentAt = new Float64Array(pairs.length / 2);
  const delays = new Float64Array(pairs.length / 2);
  for (let i = 0; i < sentAt.length; i++) {
    sentAt[i] = pairs[2 * i] as number;
    delays[i] = pairs[2 * i + 1] as number;
  }
  return { sentAt, delays };
}

export interface Loader {
  connected: Promise<unknown>;
  /** Starts afresh: from the answer on, every frame received is a sample. */
  measure(): Promise<unknown>;
  /** Everything since `measure`; measuring goes on. */
  report(): Promise<LoadReport>;
  /** Per rover: when its connect began (ms, monotonic) and how long until its response header arrived (-1: not yet). */
  opens(): Promise<{ openedAt: Float64Array; toAnswer: Float64Array }>;
  stop(): void;
}

export interface LoaderOptions {
  port: number;
  count: number;
  first: number;
  /** Keep the event loop turning instead of sleeping in epoll (BENCH_ISOLATE). */
  spin: boolean;
  /** A nice value for the process. */
  priority?: number;
  /** `mixed` (the default: alternately NTRIP 1 and NTRIP 2), `v1` or `v2`. */
  mode?: 'mixed' | 'v1' | 'v2';
  /** Connections opened per second without waiting for answers (a storm; C generator only); default 100 at a time. */
  rate?: number;
  /** Over TLS (`port` is then the caster's TLS port; Node generator only). */
  tls?: boolean;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** CLOCK_MONOTONIC in milliseconds, the clock both load generators read: one clock for every process. */
export const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Compiles rover-load.c with the system's C compiler into a temporary folder; returns the binary's path. */
export function compileRoverLoad(): string {
  const binary = path.join(mkdtempSync(path.join(os.tmpdir(), 'rover-load-')), 'rover-load');
  execFileSync('cc', ['-O2', '-Wall', '-o', binary, here('./rover-load.c')], { stdio: 'inherit' });
  return binary;
}

/** The next IPC message of `type` from a forked process; rejects on its 'error' message or its exit. */
export function nextMessage<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; message?: string }) => {
      if (message.type === 'error') return reject(new Error(message.message));
      if (message.type !== type) return;
      proc.off('message', onMessage);
      resolve(message as T);
    };
    proc.on('message', onMessage);
    proc.once('exit', (code) => reject(new Error(`${type}: process exited with ${code}`)));
  });
}

export function nodeLoader(o: LoaderOptions): Loader {
  if ((o.mode ?? 'mixed') !== 'mixed' || o.rate) throw new Error('the Node load generator opens mixed rovers only');
  const args = [String(o.port), String(o.count), String(o.first), ...(o.tls ? ['tls'] : [])];
  const proc = fork(here('./rover-load.ts'), args, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_ISOLATE: o.spin ? '1' : '' },
    stdio: 'inherit',
  });
  if (o.priority !== undefined && proc.pid !== undefined) os.setPriority(proc.pid, o.priority);
  return {
    connected: nextMessage(proc, 'connected'),
    measure: () => {
      const reply = nextMessage(proc, 'measuring');
      proc.send({ type: 'measure' });
      return reply;
    },
    report: async () => {
      const reply = nextMessage<LoadNumbers & { samples: number[] }>(proc, 'report');
      proc.send({ type: 'report' });
      const { samples, ...r } = await reply;
      return { ...r, ...unpair(Float64Array.from(samples)) };
    },
    opens: () => Promise.reject(new Error('the Node load generator does not time logins')),
    stop: () => proc.send({ type: 'stop' }),
  };
}

/** Talks to rover-load.c by lines on its stdin and stdout; its samples come back as a file of float64. */
export function cLoader(binary: string, o: LoaderOptions): Loader {
  const args = [
    String(o.port),
    String(o.count),
    String(o.first),
    o.spin ? '1' : '0',
    o.mode ?? 'mixed',
    String(o.rate ?? 0),
  ];
  const proc = spawn(binary, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  if (o.priority !== undefined && proc.pid !== undefined) os.setPriority(proc.pid, o.priority);
  const waiting = new Map<string, { resolve: (words: string[]) => void; reject: (err: Error) => void }>();
  const fail = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  createInterface({ input: proc.stdout }).on('line', (line) => {
    const [type = '', ...words] = line.split(' ');
    if (type === 'error') return fail(new Error(`rover-load: ${words.join(' ')}`));
    waiting.get(type)?.resolve(words);
    waiting.delete(type);
  });
  proc.once('exit', (code) => fail(new Error(`rover-load exited with ${code}`)));
  const reply = (type: string) => new Promise<string[]>((resolve, reject) => waiting.set(type, { resolve, reject }));
  const samplesFile = path.join(path.dirname(binary), `samples-${proc.pid}`);
  const float64s = (file: string) => {
    const bytes = readFileSync(file);
    // A copy: a small file's Buffer may sit in Node's pool at an offset a Float64Array cannot start at.
    return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  };
  return {
    connected: reply('connected'),
    measure: () => {
      const answer = reply('measuring');
      proc.stdin.write('measure\n');
      return answer;
    },
    report: async () => {
      const answer = reply('report');
      proc.stdin.write(`report ${samplesFile}\n`);
      const [frames = 0, disconnected = 0, cpuMicros = 0] = (await answer).map(Number);
      return { frames, disconnected, cpuMicros, ...unpair(float64s(samplesFile)) };
    },
    opens: async () => {
      const answer = reply('opens');
      proc.stdin.write(`opens ${samplesFile}\n`);
      await answer;
      const { sentAt, delays } = unpair(float64s(samplesFile));
      return { openedAt: sentAt, toAnswer: delays };
    },
    stop: () => proc.stdin.write('stop\n'),
  };
}
