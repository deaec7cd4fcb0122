import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { startAuthEmulator } from '../server/src/dev/auth-emulator.ts';
import { freePort } from '../server/src/dev/free-port.ts';
import { buildSpaIfStale, root, startServer } from './launch.ts';

/**
 * `npm run bench:web`: Lighthouse (mobile preset, simulated throttling) on the SPA as `npm start` serves it: the
 * production build pointed at an Auth Emulator, served by the portal server (STATIC_DIR) with the demo data, in
 * Debian's Chromium kept off the network. Every page is loaded BENCH_RUNS times (5) from a cold cache; the medians
 * are printed, with the JavaScript of the first load: the bytes on the wire and the gzip size of the same files
 * (deterministic, what the size budget counts). The logged-in pages are measured as the seeded demo user, who logs
 * in through the login modal first, as the e2e tests do.
 *
 * BENCH_RUNS, BENCH_PAGES (paths, comma separated) and CHROMIUM_PATH adjust it; BENCH_DETAILS=1 prints where the
 * main thread's time went.
 *
 * Lighthouse's simulated timings scale the CPU time it observes, so perf, LCP and TBT depend on what else the machine
 * runs: each run prints the load average and the CPU pressure (Linux PSI, the share of the last 10 s in which a task
 * waited for a core), and the summary says when the figures are not comparable with a quiet machine's.
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Above this one-minute load average the machine is not quiet enough for Lighthouse's timings to compare. */
const QUIET_LOAD = 1;
const LOGGED_OUT = ['/dashboard', '/marketplace', '/signup', '/credits'];
const LOGGED_IN = ['/accounts'];
const ONLY = process.env.BENCH_PAGES?.split(',');
const DEMO_USER = { email: 'surveyor@demo.gnss-portal.test', password: 'demo-user-2026' };
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const SPA_DIR = 'dist-bench';

interface Run {
  /** The machine at the start of the run. */
  machine?: Machine;
  perf: number;
  a11y: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsWireBytes: number;
  jsGzipBytes: number;
  apiRequests: number;
  offOrigin: string[];
  failed: string[];
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  statusCode?: number;
}

interface Machine {
  load: number;
  /** Linux PSI `some avg10` of /proc/pressure/cpu, percent; null where the kernel does not report it. */
  cpuPressure: number | null;
}

function machine(): Machine {
  let cpuPressure: number | null = null;
  try {
    const some = /^some avg10=([\d.]+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    cpuPressure = some ? Number(some[1]) : null;
  } catch {
    // no PSI on this kernel
  }
  return { load: loadavg()[0] ?? 0, cpuPressure };
}

const describeMachine = (m: Machine) =>
  `load ${m.load.toFixed(2)}, CPU pressure ${m.cpuPressure === null ? 'n/a' : `${m.cpuPressure.toFixed(1)} %`}`;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (i: number) => sorted[i] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
};

const gzipCache = new Map<string, number>();
/** The gzip size of a built file, as the size budget counts it. */
function gzipBytes(pathname: string): number {
  let size = gzipCache.get(pathname);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(root, SPA_DIR, pathname)), { level: 9 }).length;
    gzipCache.set(pathname, size);
  }
  return size;
}

async function lighthouseRun(url: string, port: number, keepStorage: boolean): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    disableStorageReset: keepStorage,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  if (process.env.BENCH_DETAILS) {
    for (const id of ['mainthread-work-breakdown', 'bootup-time', 'long-tasks', 'largest-contentful-paint-element']) {
      const items = (lhr.audits[id]?.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? [];
      console.log(`    ${id}:`, JSON.stringify(items.slice(0, 8)));
    }
    if (process.env.BENCH_DETAILS === 'requests') {
      const requests = (lhr.audits['network-requests']?.details as { items?: Array<Record<string, unknown>> })?.items;
      for (const r of requests ?? []) {
        const at = (key: string) => Math.round(Number(r[key] ?? Number.NaN));
        console.log(`    ${at('networkRequestTime')}–${at('networkEndTime')} ms ${r.priority} ${r.url}`);
      }
    }
    for (const category of ['accessibility', 'best-practices', 'seo']) {
      const failing = (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map(
          (ref) =>
            `${ref.id}: ${JSON.stringify((lhr.audits[ref.id]?.details as { items?: unknown[] })?.items?.slice(0, 3))}`,
        );
      if (failing.length) console.log(`    ${category} loses on:`, failing.join('\n      '));
    }
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const origin = new URL(url).origin;
  const items = ((lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ??
    []) as NetworkItem[];
  const scripts = items.filter((i) => i.resourceType === 'Script' && i.url.startsWith(origin));
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    jsWireBytes: scripts.reduce((sum, i) => sum + (i.transferSize ?? 0), 0),
    jsGzipBytes: scripts.reduce((sum, i) => sum + gzipBytes(new URL(i.url).pathname), 0),
    apiRequests: items.filter((i) => i.url.startsWith(`${origin}/api/`)).length,
    offOrigin: items.filter((i) => /^https?:/.test(i.url) && !i.url.startsWith(origin)).map((i) => i.url),
    failed: items.filter((i) => (i.statusCode ?? 0) >= 400).map((i) => `${i.statusCode} ${i.url}`),
  };
}

/** Logs the demo user in through the login modal in the browser Lighthouse then drives, then empties the cache. */
async function logIn(chromePort: number, baseURL: string): Promise<void> {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}` });
  const page = await browser.newPage();
  await page.goto(`${baseURL}/login`);
  await page.waitForSelector('[data-testid="login-form"] [data-testid="auth-email"]');
  await page.type('[data-testid="login-form"] [data-testid="auth-email"]', DEMO_USER.email);
  await page.type('[data-testid="login-form"] [data-testid="auth-password"]', DEMO_USER.password);
  await page.click('[data-testid="login-form"] [data-testid="auth-submit"]');
  await page.waitForSelector('[data-testid="login-modal"]', { hidden: true, timeout: 60_000 });
  await page.waitForFunction(
    () => ((globalThis as { dataLayer?: Array<{ event?: string }> }).dataLayer ?? []).some((e) => e.event === 'login'),
    { timeout: 60_000 },
  );
  await page.close();
  await browser.disconnect();
}

async function clearCache(chromePort: number): Promise<void> {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}` });
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await page.close();
  await browser.disconnect();
}

async function measure(path: string, baseURL: string, loggedIn: boolean): Promise<Run[]> {
  const runs: Run[] = [];
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  try {
    if (loggedIn) await logIn(chrome.port, baseURL);
    for (let i = 0; i < RUNS; i++) {
      if (loggedIn) await clearCache(chrome.port);
      const before = machine();
      const run = { ...(await lighthouseRun(`${baseURL}${path}`, chrome.port, loggedIn)), machine: before };
      console.log(
        `  ${path} run ${i + 1}: perf ${run.perf}, LCP ${Math.round(run.lcpMs)} ms, TBT ${Math.round(run.tbtMs)} ms, ` +
          `CLS ${run.cls.toFixed(3)}, JS ${(run.jsGzipBytes / 1024).toFixed(1)} KiB gzip (${describeMachine(before)})`,
      );
      runs.push(run);
    }
  } finally {
    chrome.kill();
  }
  return runs;
}

function table(results: Array<{ page: string; runs: Run[] }>): string {
  const head =
    '| page | perf | a11y | best practices | SEO | LCP | TBT | CLS | JS first load (gzip) | JS on the wire | API requests |';
  const rows = results.map(({ page, runs }) => {
    const m = (f: (r: Run) => number) => median(runs.map(f));
    return `| ${page} | ${m((r) => r.perf)} | ${m((r) => r.a11y)} | ${m((r) => r.bestPractices)} | ${m((r) => r.seo)} | ${(m((r) => r.lcpMs) / 1000).toFixed(1)} s | ${Math.round(m((r) => r.tbtMs))} ms | ${m((r) => r.cls).toFixed(3)} | ${(m((r) => r.jsGzipBytes) / 1024).toFixed(1)} KiB | ${(m((r) => r.jsWireBytes) / 1024).toFixed(1)} KiB | ${m((r) => r.apiRequests)} |`;
  });
  return [head, `|${'---|'.repeat(11)}`, ...rows].join('\n');
}

const emulator = await startAuthEmulator();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
const port = await freePort();
const baseURL = `http://127.0.0.1:${port}`;
let server: ReturnType<typeof startServer> | undefined;
try {
  // The build bakes in the emulator's address, which is new every run: each run builds.
  await buildSpaIfStale({ VITE_FIREBASE_AUTH_EMULATOR_URL: `http://${emulator.host}` }, SPA_DIR);
  server = startServer({
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    STATIC_DIR: join(root, SPA_DIR),
    SEED_DEMO: 'true',
    HOST: '127.0.0.1',
    PORT: String(port),
    CASTER_PORT: String(await freePort()),
    PGLITE_DATA_DIR: join(dataDir, 'db'),
    ARCHIVE_DIR: join(dataDir, 'archive'),
    RINEX_RESULTS_DIR: join(dataDir, 'rinex'),
    PUBLIC_URL: baseURL,
    LOG_LEVEL: 'warn',
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error('The portal server ended before it answered');
    if (Date.now() > deadline) throw new Error(`The portal server did not answer ${baseURL}/api/meta`);
    if (
      await fetch(`${baseURL}/api/meta`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 250));
  }

  const results: Array<{ page: string; runs: Run[] }> = [];
  for (const [pages, loggedIn] of [
    [LOGGED_OUT, false],
    [LOGGED_IN, true],
  ] as const) {
    for (const path of pages.filter((p) => !ONLY || ONLY.includes(p))) {
      console.log(`${path} (${loggedIn ? 'logged in' : 'logged out'})`);
      results.push({ page: `${path}${loggedIn ? ' (logged in)' : ''}`, runs: await measure(path, baseURL, loggedIn) });
    }
  }
  const problems = results.flatMap(({ page, runs }) =>
    [...new Set(runs.flatMap((r) => [...r.offOrigin.map((u) => `other origin: ${u}`), ...r.failed]))].map(
      (p) => `${page}: ${p}`,
    ),
  );
  const machines = results.flatMap(({ runs }) => runs.flatMap((r) => (r.machine ? [r.machine] : [])));
  const loads = machines.map((m) => m.load);
  const pressures = machines.flatMap((m) => (m.cpuPressure === null ? [] : [m.cpuPressure]));
  const busy = machines.filter((m) => m.load > QUIET_LOAD).length;
  console.log(
    `\nMedians of ${RUNS} Lighthouse runs (mobile preset); at the runs' starts load average ` +
      `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}` +
      (pressures.length
        ? `, CPU pressure ${Math.min(...pressures).toFixed(1)}–${Math.max(...pressures).toFixed(1)} %`
        : '') +
      ':\n',
  );
  console.log(table(results));
  if (busy > 0)
    console.log(
      `\nNOT COMPARABLE: ${busy} of ${machines.length} runs started with a load average above ${QUIET_LOAD}; perf, LCP ` +
        'and TBT are pessimistic on a busy machine (bytes, CLS and the other categories are not affected).',
    );
  if (problems.length) console.log(`\nFailed requests and requests to other origins:\n${problems.join('\n')}`);
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  await emulator.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
