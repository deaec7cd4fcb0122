// The registry mirror this project is developed against serves only the Linux builds of packages that ship native
// binaries per platform, so `npm install` cannot record the other platforms' optional packages and `npm ci` then
// rejects the lock as out of sync. This adds those entries, marked with the os/cpu/libc their names state, so that
// npm ci skips them on a Linux machine and a machine with the full registry fetches them by name and version.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'win32',
  'openharmony',
  'netbsd',
  'openbsd',
  'sunos',
  'aix',
  'wasm32',
];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const base = name.split('/').pop();
  const parts = base.split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpuPart =
    parts.find((p) => CPU.includes(p)) ?? (base.includes('gnueabihf') || base.includes('-arm-') ? 'arm' : undefined);
  if (!os || !cpuPart) return undefined;
  if (os === 'wasm32' || base.includes('wasm32')) return { cpu: ['wasm32'] };
  const entry = { os: [os], cpu: [cpuPart] };
  if (base.includes('musl')) entry.libc = ['musl'];
  else if (base.includes('gnu') && os === 'linux') entry.libc = ['glibc'];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const prefix = path === '' ? '' : `${path}/`;
    const candidates = [`${prefix}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = {
      version,
      ...platform,
      ...(pkg.dev && { dev: true }),
      optional: true,
    };
    added++;
  }
}
if (process.argv.includes('--check')) {
  if (added > 0) {
    console.error(
      `package-lock.json lacks ${added} foreign-platform optional packages: run node scripts/lock-foreign-platforms.mjs`,
    );
    process.exit(1);
  }
  process.exit(0);
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} foreign-platform optional packages recorded`);
