import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root, run } from './launch.ts';

/**
 * `npm test`: lint and typecheck beside the vitest groups, which run one after another (they each start their own
 * emulator and servers, and two cores do not run them well side by side), then one closing count line.
 */
const groups: Array<{ name: string; projects: string[] }> = [
  { name: 'unit', projects: ['spa', 'contract', 'gnss', 'caster'] },
  { name: 'server', projects: ['server-pglite', 'server-postgres'] },
  { name: 'e2e', projects: ['e2e'] },
];
const only = process.argv.slice(2);
const resultsDir = join(root, 'artifacts/test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;

/** `npm run check` with its output kept, to be shown once the tests have finished. */
function checkQuietly(): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', 'check'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('error', (err) => resolve({ ok: false, output: `${output}${err.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });
}

// Lint and typecheck run beside the test groups rather than before them: they keep one core busy for over a
// minute, and the groups leave the second one mostly idle (one test worker; the rest waits on emulators, databases
// and browsers). A lint or type failure fails the run, but the tests still run so one CI log shows everything.
const check = only.length === 0 ? checkQuietly() : undefined;

for (const group of groups.filter((g) => only.length === 0 || only.includes(g.name))) {
  const outputFile = join(resultsDir, `${group.name}.json`);
  const args = [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--passWithNoTests'];
  for (const p of group.projects) args.push('--project', p);
  args.push('--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`);
  try {
    await run(process.execPath, args);
  } catch {
    broken = true;
  }
  if (!existsSync(outputFile)) {
    broken = true;
    continue;
  }
  const report = JSON.parse(readFileSync(outputFile, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}

if (check) {
  const { ok, output } = await check;
  process.stdout.write(`\n> npm run check\n${output}`);
  if (!ok) {
    broken = true;
    console.error('npm run check failed');
  }
}

console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (broken || failed > 0) process.exit(1);
