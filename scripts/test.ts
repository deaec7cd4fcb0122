import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './launch.ts';

/**
 * `npm test`: the vitest groups and `npm run check` in two lanes that run side by side, then one closing count line.
 * Each group keeps one test worker; the server group leaves about a quarter of the two cores idle and the e2e group a
 * third (they wait on databases, emulators and browsers), so the lanes together take about the longer lane, not the
 * sum (docs/testing.md has the figures).
 */
type Step = { name: string; projects: string[] } | 'check';
const unit: Step = { name: 'unit', projects: ['spa', 'contract', 'gnss', 'caster'] };
const server: Step = { name: 'server', projects: ['server-pglite', 'server-postgres'] };
const e2e: Step = { name: 'e2e', projects: ['e2e'] };

const only = process.argv.slice(2);
// The first lane prints as it goes; the second one's output is kept and printed when each of its steps ends, so two
// reporters never interleave their lines.
const lanes: Step[][] =
  only.length === 0
    ? [
        [unit, server],
        [e2e, 'check'],
      ]
    : [[unit, server, e2e].filter((g) => only.includes(g.name))];

const resultsDir = join(root, 'artifacts/test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;

/** Runs a command; `quiet` keeps its output and prints it in one piece when it ends. Resolves to whether it passed. */
function execute(title: string, cmd: string, args: string[], quiet: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    const keep = (c: Buffer) => {
      output += c.toString();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const end = (ok: boolean) => {
      if (quiet) process.stdout.write(`\n> ${title}\n${output}`);
      resolve(ok);
    };
    child.on('error', (err) => {
      output += `${err.message}\n`;
      end(false);
    });
    child.on('close', (code) => end(code === 0));
  });
}

async function runStep(step: Step, quiet: boolean): Promise<void> {
  if (step === 'check') {
    if (!(await execute('npm run check', 'npm', ['run', 'check'], quiet))) {
      broken = true;
      console.error('npm run check failed');
    }
    return;
  }
  const outputFile = join(resultsDir, `${step.name}.json`);
  const args = [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--passWithNoTests'];
  for (const p of step.projects) args.push('--project', p);
  args.push('--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`);
  if (!(await execute(`vitest: ${step.name}`, process.execPath, args, quiet))) broken = true;
  if (!existsSync(outputFile)) {
    broken = true;
    return;
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

await Promise.all(
  lanes.map(async (steps, lane) => {
    for (const step of steps) await runStep(step, lane > 0);
  }),
);

console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (broken || failed > 0) process.exit(1);
