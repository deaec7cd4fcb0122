import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root, run } from './launch.ts';

/**
 * `npm test`: lint and typecheck, then the vitest groups one after another (they each start their own
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

if (only.length === 0) {
  // A lint or type failure fails the run, but the tests still run so one CI log shows everything.
  await run('npm', ['run', 'check']).catch(() => {
    broken = true;
    console.error('npm run check failed');
  });
}

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

console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (broken || failed > 0) process.exit(1);
