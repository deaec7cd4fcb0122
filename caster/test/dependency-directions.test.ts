import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The dependency directions (biome.json's noRestrictedImports overrides): the caster never imports the portal API,
 * contract/ imports neither side, gnss/ neither the server nor the caster, the server never the SPA's sources and an
 * SPA feature never the app shell. Probe files with each import are linted with the repository's configuration in a
 * scratch folder, so the rule is seen to refuse the wrong direction and to let the right one through.
 */
const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
const biome = join(repo, 'node_modules/.bin/biome');

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'dependency-directions-'));
  const config = JSON.parse(await readFile(join(repo, 'biome.json'), 'utf8'));
  // The scratch folder is no git checkout; the schema path is the repository's.
  config.vcs = { enabled: false };
  delete config.$schema;
  await writeFile(join(scratch, 'biome.json'), JSON.stringify(config));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function lint(path: string, importLine: string): Promise<string> {
  const file = join(scratch, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${importLine}\nexport const probe = imported;\n`);
  return new Promise((resolve) => {
    execFile(biome, ['lint', '--max-diagnostics=50', path], { cwd: scratch }, (_err, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
}

describe('dependency directions between the workspaces', () => {
  it.each([
    ['caster/src/a.ts', "import { imported } from '@portal/server';"],
    ['caster/src/b.ts', "import { imported } from '../../server/src/app.ts';"],
    ['caster/src/c.ts', "import { imported } from '@portal/contract';"],
    ['contract/src/d.ts', "import { imported } from '@portal/server';"],
    ['contract/src/e.ts', "import { imported } from '../../caster/src/caster.ts';"],
    ['contract/src/f.ts', "import { imported } from '../../src/features/billing/billing.api.ts';"],
    ['gnss/src/g.ts', "import { imported } from '@portal/caster';"],
    ['src/features/k/K.tsx', "import { imported } from '../../app/layout/Header.tsx';"],
    ['server/src/modules/l/l.ts', "import { imported } from '../../../../src/lib/brand/index.ts';"],
  ])('%s: refuses %s', async (path, importLine) => {
    expect(await lint(path, importLine)).toContain('noRestrictedImports');
  });

  it.each([
    ['caster/src/h.ts', "import { imported } from '@portal/gnss';"],
    ['server/src/i.ts', "import { imported } from '@portal/caster';"],
    ['contract/src/j.ts', "import { imported } from './money.ts';"],
    ['src/app/layout/m.tsx', "import { imported } from '../../features/billing/useTokenBalance.ts';"],
    ['server/src/modules/n/n.ts', "import { imported } from '@portal/contract/brand';"],
  ])('%s: allows %s', async (path, importLine) => {
    const output = await lint(path, importLine);
    expect(output).toContain('Checked 1 file');
    expect(output).not.toContain('noRestrictedImports');
  });
});
