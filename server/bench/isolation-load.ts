import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { LoopDelayReading } from './loop-delay-probe.ts';

/**
 * The hostile and unlucky NTRIP clients of `npm run bench:isolation`, and the user it measures: each generator
 * keeps its clients going until stopped and counts what the caster answered, so a run shows the load was real.
 */

/** Outcomes by kind: an answer's status code ('200', '401', '429', '408' …) or what else ended the attempt. */
export type Tally = Record<string, number>;

export interface Load {
  readonly tally: Tally;
  /** How long each counted attempt took, from connecting to its end, ms. */
  readonly attemptMs: number[];
  /** Ends every client at once and resolves with the final tally. */
  stop(): Promise<Tally>;
}

export interface NtripAccount {
  username: string;
  password: string;
  mountpoints: string[];
}

const CONNECT_OPTIONS = { host: '127.0.0.1' };
/** Longer than the caster's 10 s for a request head, so only a caster that never answers ends an attempt here. */
const ATTEMPT_TIMEOUT_MS = 15_000;

/**
 * The client addresses of a load: on Linux all of 127.0.0.0/8 reaches the loopback caster, so the caster sees
 * as many rovers' addresses as there are clients, as it would on the internet.
 */
export function loopbackAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.${1 + Math.floor(i / 250)}.${2 + (i % 250)}`);
}

function count(tally: Tally, outcome: string): void {
  tally[outcome] = (tally[outcome] ?? 0) + 1;
}

const STATUS = /^(?:HTTP\/1\.[01]|ICY|SOURCETABLE|ERROR)\s+(\d{3}|- Bad Password)/;

/** The status of an NTRIP answer's first line ('200' for ICY 200 OK and SOURCETABLE 200 OK). */
function statusOf(head: string): string | null {
  const line = head.split('\r\n', 1)[0] ?? '';
  if (!head.includes('\r\n')) return null;
  return STATUS.exec(line)?.[1] ?? 'unreadable';
}

interface Attempt {
  socket: net.Socket;
  /** Resolves with the outcome once the attempt is over. */
  done: Promise<string>;
}

/**
 * One connection: `request` is written once connected; `until` decides from what arrived whether the attempt is
 * over (it may also never be, for a client that waits to be closed). With `until` null nothing is ever read.
 */
function attempt(
  port: number,
  localAddress: string | undefined,
  request: string | null,
  until: ((received: string) => string | null) | null,
): Attempt {
  const socket = net.connect({ ...CONNECT_OPTIONS, port, ...(localAddress && { localAddress }) });
  socket.setNoDelay(true);
  const done = new Promise<string>((resolve) => {
    let received = '';
    let over = false;
    const finish = (outcome: string) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(`no answer in ${ATTEMPT_TIMEOUT_MS / 1000} s`), ATTEMPT_TIMEOUT_MS);
    socket.on('connect', () => {
      if (request !== null) socket.write(request);
    });
    if (until) {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        const outcome = until(received);
        if (outcome !== null) finish(outcome);
      });
    }
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code ?? 'error'));
    socket.on('close', () => finish(statusOf(received) ?? 'closed without an answer'));
  });
  return { socket, done };
}

/**
 * Runs `client(i)` for each of `clients` in a loop until stopped; `client` resolves with its attempt's outcome.
 * Attempts cut short by stop() are not counted.
 */
function loop(clients: number, client: (i: number, running: () => boolean) => Promise<string>): Load {
  const tally: Tally = {};
  const attemptMs: number[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, i) => {
    while (running) {
      const started = performance.now();
      const outcome = await client(i, () => running);
      if (!running) break;
      attemptMs.push(performance.now() - started);
      count(tally, outcome);
    }
  });
  return {
    tally,
    attemptMs,
    async stop() {
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export interface StormOptions {
  port: number;
  clients: number;
  accounts: NtripAccount[];
  /** Every n-th client is a rover with a stale password (10: a tenth of them). */
  staleEvery: number;
  addresses: string[];
}

/**
 * A reconnect storm: rovers that connect, get their answer and hang up at once, over and over, half NTRIP 1 and
 * half NTRIP 2, every `staleEvery`-th with a password that is no longer right (as after a password change that did
 * not reach the rover), each from its own address.
 */
export function reconnectStorm(options: StormOptions): Load {
  const open = new Set<net.Socket>();
  const load = loop(options.clients, async (i) => {
    const account = options.accounts[i % options.accounts.length] as NtripAccount;
    const mountpoint = account.mountpoints[i % account.mountpoints.length] as string;
    const password = i % options.staleEvery === 0 ? `stale-${account.password}` : account.password;
    const auth = basic(account.username, password);
    const request =
      i % 2 === 0
        ? `GET /${mountpoint} HTTP/1.1\r\nHost: caster\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP bench-storm\r\nAuthorization: ${auth}\r\n\r\n`
        : `GET /${mountpoint} HTTP/1.0\r\nUser-Agent: NTRIP bench-storm\r\nAuthorization: ${auth}\r\n\r\n`;
    const a = attempt(options.port, options.addresses[i % options.addresses.length], request, statusOf);
    open.add(a.socket);
    const outcome = await a.done;
    open.delete(a.socket);
    return outcome;
  });
  return {
    ...load,
    stop() {
      for (const socket of open) socket.destroy();
      return load.stop();
    },
  };
}

/**
 * Sourcetable filters (NTRIP 2 `GET /?…`) chosen to cost the most: the issue's `STR;;;;*****#`, stars by the
 * thousand, star-separated letters that the station names contain (each star retried along the value), and
 * hundreds of alternatives per field. Each stays under the caster's 8 KB request head.
 */
export const HOSTILE_FILTERS: string[] = [
  'STR;;;;*****%23',
  `STR;;;;${'*'.repeat(3000)}%23`,
  `STR;${'*B'.repeat(1500)}%23`,
  `STR;;${'*e'.repeat(1500)}*%23`,
  `STR;${Array.from({ length: 600 }, (_, i) => `*${i}*`).join('|')}`,
  `STR;;${Array.from({ length: 500 }, () => '~station*').join('|')}`,
];

export interface FloodOptions {
  port: number;
  clients: number;
  filters: string[];
  addresses: string[];
}

/** A flood of sourcetable requests with hostile filters, each client asking again as soon as it has its answer. */
export function sourcetableFlood(options: FloodOptions): Load {
  const open = new Set<net.Socket>();
  let next = 0;
  const load = loop(options.clients, async (i) => {
    const filter = options.filters[next++ % options.filters.length] as string;
    const request = `GET /?${filter} HTTP/1.1\r\nHost: caster\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP bench-flood\r\n\r\n`;
    // The caster closes the connection after the table: read it all, as a real client would.
    const a = attempt(options.port, options.addresses[i % options.addresses.length], request, () => null);
    open.add(a.socket);
    const outcome = await a.done;
    open.delete(a.socket);
    return outcome;
  });
  return {
    ...load,
    stop() {
      for (const socket of open) socket.destroy();
      return load.stop();
    },
  };
}

export interface SlowOptions {
  port: number;
  clients: number;
  /** How long a client that never reads keeps its connection before it hangs up and asks again. */
  holdMs: number;
  /** Between two bytes of a client that sends its request head one byte at a time. */
  dribbleMs: number;
  addresses: string[];
}

/**
 * Clients that cost the caster by being slow: half ask for the whole sourcetable and never read it (the caster's
 * answer waits in socket buffers), half send a request head one byte at a time and never finish it (the caster
 * holds the connection until its head timeout). Each starts over when its connection ends.
 */
export function slowClients(options: SlowOptions): Load {
  const open = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });
  const load = loop(options.clients, async (i, running) => {
    const address = options.addresses[i % options.addresses.length];
    if (i % 2 === 0) {
      const request =
        'GET / HTTP/1.1\r\nHost: caster\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP bench-slow\r\n\r\n';
      // Never read: what the caster sends waits in the socket buffers on both sides.
      const a = attempt(options.port, address, request, null);
      open.add(a.socket);
      const held = await Promise.race([a.done, wait(options.holdMs).then(() => 'held, never read')]);
      a.socket.destroy();
      open.delete(a.socket);
      return held;
    }
    const head = 'GET /SLOW HTTP/1.1\r\nHost: caster\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP bench-slow\r\n';
    const a = attempt(options.port, address, null, statusOf);
    open.add(a.socket);
    let sent = 0;
    let over = false;
    void a.done.then(() => {
      over = true;
    });
    await new Promise<void>((resolve) => a.socket.once('connect', () => resolve()).once('close', () => resolve()));
    while (!over && running() && sent < head.length) {
      a.socket.write(head[sent++] as string);
      await Promise.race([wait(options.dribbleMs), a.done]);
    }
    a.socket.destroy();
    open.delete(a.socket);
    return a.done;
  });
  return {
    ...load,
    stop() {
      for (const t of timers) clearTimeout(t);
      for (const socket of open) socket.destroy();
      return load.stop();
    },
  };
}

export interface LatencyReport {
  /** Milliseconds from each request's scheduled send time to its complete answer. */
  latencies: number[];
  statuses: Tally;
}

/**
 * A user of the API: GET `url` at a fixed rate, whether or not earlier requests have been answered, each timed
 * from when it was due. A stalled API therefore shows as the wait its users would see, not as fewer requests.
 */
export function apiUser(url: string, perSecond: number): { stop(): Promise<LatencyReport> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const statuses: Tally = {};
  const pending = new Set<Promise<void>>();
  const interval = 1000 / perSecond;
  const start = performance.now();
  let sent = 0;
  let running = true;
  const send = (due: number) => {
    const request = new Promise<void>((resolve) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            count(statuses, String(res.statusCode));
            resolve();
          });
        })
        .on('error', (err: NodeJS.ErrnoException) => {
          count(statuses, err.code ?? 'error');
          resolve();
        });
    });
    pending.add(request);
    void request.then(() => pending.delete(request));
  };
  // Every request that fell due since the last turn goes out now, stamped with the time it was due.
  const tick = () => {
    if (!running) return;
    const now = performance.now();
    while (start + sent * interval <= now) send(start + sent++ * interval);
    timer = setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
  };
  let timer = setTimeout(tick, 0);
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      await Promise.all(pending);
      agent.destroy();
      return { latencies, statuses };
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Asks a portal process's loop-delay probe (loop-delay-probe.ts) to start over or for its reading. */
export function askProbe(path: string, command: 'reset' | 'read'): Promise<LoopDelayReading> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(path, () => socket.write(`${command}\n`));
    socket.on('data', (d) => {
      answer += d.toString();
    });
    socket.on('end', () => resolve(JSON.parse(answer)));
    socket.on('error', reject);
  });
}
