import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { CASTER_NODE_FLAGS, encodeFrame } from '../src/index.ts';
import { cLoader, compileRoverLoad, type LoadReport, monotonicMs, nextMessage } from './rover-loaders.ts';

/**
 * `npm run bench:topology`: the caster nodes of the deployment (docs/deployment.md) under load, in one run.
 *
 * 1. Three caster processes sharing sources over NATS (BENCH_NATS_URL, the local server by default, a subject
 *    prefix of this run's own), a base station pushing a 933-byte frame a second to the first, and
 *    BENCH_TOPOLOGY_ROVERS (30,000) rovers spread evenly over the three, as HAProxy's leastconn spreads them: the
 *    rovers of the second and third node receive the frames over NATS.
 * 2. One caster process alone with a third of them (10,000), the same base pushing to it.
 *
 * For each node: the fan-out p99 (a frame's receive time in the rovers' load process minus the send time stamped in
 * it, so the NATS hop is in it for the other nodes' rovers), its CPU (share of one core over the measuring window)
 * and its RSS. The rovers are connected straight to the nodes, not through HAProxy, whose relaying would take the
 * same two cores: what is measured is the caster nodes. The machine's load average is printed before and after,
 * since a shared machine's figures are only as good as the quiet it had. BENCH_SECONDS (15) is the window.
 */

const ROVERS = Number(process.env.BENCH_TOPOLOGY_ROVERS ?? 30_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const FRAME_BYTES = 933;
const WARMUP_MS = 3000;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface NodeStats {
  rss: number;
  cpu: NodeJS.CpuUsage;
  at: number;
  rovers: number;
}

interface CasterNode {
  name: string;
  port: number;
  proc: ChildProcess;
  stats(): Promise<NodeStats>;
  stop(): Promise<void>;
}

async function startNode(name: string, bus: { prefix: string } | null): Promise<CasterNode> {
  const proc = fork(here('./caster-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...CASTER_NODE_FLAGS],
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(bus ? { BENCH_BUS_URL: NATS_URL, BENCH_BUS_PREFIX: bus.prefix, BENCH_NODE_ID: name } : {}),
    },
  });
  const { port } = await nextMessage<{ port: number }>(proc, 'ready');
  return {
    name,
    port,
    proc,
    async stats() {
      const reply = nextMessage<NodeStats>(proc, 'stats');
      proc.send({ type: 'stats', gc: false });
      return reply;
    },
    async stop() {
      const stopped = nextMessage(proc, 'stopped');
      proc.send({ type: 'stop' });
      await stopped;
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

async function connectSource(port: number): Promise<net.Socket> {
  const source = net.connect({ port, host: '127.0.0.1' });
  source.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    source.once('error', reject);
    source.on('connect', () => source.write('SOURCE bench /BENCH\r\nSource-Agent: NTRIP bench\r\n\r\n'));
    source.once('data', (d) => (d.toString().startsWith('ICY 200 OK') ? resolve() : reject(new Error(d.toString()))));
  });
  return source;
}

/** A frame whose payload carries its send time on the monotonic clock the load generator reads too. */
function frame(sentAt: number): Buffer {
  const payload = Buffer.alloc(FRAME_BYTES - 6);
  payload[0] = 0x43;
  payload[1] = 0x50;
  payload.writeDoubleLE(sentAt, 2);
  return encodeFrame(payload);
}

function p99(report: LoadReport, from: number, to: number): number {
  const delays = Float64Array.from(
    report.delays.filter((_, i) => (report.sentAt[i] as number) >= from && (report.sentAt[i] as number) < to),
  ).sort();
  if (delays.length === 0) return Number.NaN;
  return delays[Math.min(delays.length - 1, Math.floor(0.99 * delays.length))] as number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Row {
  setup: string;
  node: string;
  rovers: number;
  p99: number;
  cpu: number;
  rssMb: number;
  /** Resident memory above the node's before its rovers came. */
  rssPerRoverKb: number;
  frames: number;
  expected: number;
}

/** `count` nodes (over NATS when more than one), `rovers` spread evenly, the base on the first; one row per node. */
async function scenario(setup: string, count: number, rovers: number, binary: string): Promise<Row[]> {
  const bus = count > 1 ? { prefix: `bench-${randomUUID().slice(0, 8)}` } : null;
  const nodes: CasterNode[] = [];
  for (let i = 1; i <= count; i++) nodes.push(await startNode(`caster-${i}`, bus));
  const base = await Promise.all(nodes.map((n) => n.stats()));
  const source = await connectSource((nodes[0] as CasterNode).port);
  let sending = true;
  const timer = setInterval(() => {
    if (sending) source.write(frame(monotonicMs()));
  }, 1000);
  const loaders = nodes.map((n, i) => {
    const share = Math.floor(rovers / count) + (i < rovers % count ? 1 : 0);
    return { node: n, share, loader: cLoader(binary, { port: n.port, count: share, first: 0, spin: false }) };
  });
  try {
    const opened = Date.now();
    await Promise.all(loaders.map((l) => l.loader.connected));
    console.log(`  ${setup}: ${rovers} rovers connected in ${((Date.now() - opened) / 1000).toFixed(1)} s`);
    await sleep(WARMUP_MS);
    const before = await Promise.all(nodes.map((n) => n.stats()));
    await Promise.all(loaders.map((l) => l.loader.measure()));
    const from = monotonicMs();
    await sleep(SECONDS * 1000);
    const to = monotonicMs() - 1000;
    const reports = await Promise.all(loaders.map((l) => l.loader.report()));
    const after = await Promise.all(nodes.map((n) => n.stats()));
    return loaders.map((l, i) => {
      const b = before[i] as NodeStats;
      const a = after[i] as NodeStats;
      const report = reports[i] as LoadReport;
      const cpuMicros = a.cpu.user + a.cpu.system - (b.cpu.user + b.cpu.system);
      return {
        setup,
        node: l.node.name,
        rovers: a.rovers,
        p99: p99(report, from, to),
        cpu: cpuMicros / 1000 / (a.at - b.at),
        rssMb: a.rss / 2 ** 20,
        rssPerRoverKb: (a.rss - (base[i] as NodeStats).rss) / 1024 / Math.max(1, a.rovers),
        frames: report.frames,
        expected: l.share * SECONDS,
      };
    });
  } finally {
    sending = false;
    clearInterval(timer);
    for (const l of loaders) l.loader.stop();
    source.destroy();
    for (const n of nodes) await n.stop();
  }
}

const binary = compileRoverLoad();
const third = Math.round(ROVERS / 3);
console.log(
  `bench:topology: ${ROVERS} rovers over three caster nodes on NATS (${NATS_URL}), then ${third} on one node; ` +
    `1 frame of ${FRAME_BYTES} B a second, ${SECONDS} s measured`,
);
console.log(`  ${os.availableParallelism()} cores; load average before: ${load()}`);
const rows = [...(await scenario('3 nodes', 3, ROVERS, binary)), ...(await scenario('1 node', 1, third, binary))];
console.log(`  load average after: ${load()}\n`);
console.log('setup    node      rovers   fan-out p99   CPU (one core)   RSS     per rover   frames received');
for (const r of rows) {
  console.log(
    `${r.setup.padEnd(8)} ${r.node.padEnd(9)} ${String(r.rovers).padStart(6)}   ${r.p99.toFixed(1).padStart(8)} ms   ` +
      `${(r.cpu * 100).toFixed(1).padStart(10)} %   ${r.rssMb.toFixed(0).padStart(4)} MB   ${r.rssPerRoverKb.toFixed(1).padStart(5)} KB   ` +
      `${r.frames} of ~${r.expected}`,
  );
}
const total = rows.filter((r) => r.setup === '3 nodes');
console.log(
  `\nper 1,000 rovers at 1 Hz (3 nodes): ${((total.reduce((n, r) => n + r.cpu, 0) / (ROVERS / 1000)) * 100).toFixed(1)} % of a core, ` +
    `${(((total.reduce((n, r) => n + r.rssPerRoverKb * r.rovers, 0) / ROVERS) * 1000) / 1024).toFixed(1)} MB RSS above the nodes' base`,
);
process.exit(0);
