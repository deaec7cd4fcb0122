import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Module imports (docs/adr/0096): the server modules form a layered graph. Read from the sources as text:
 * (a) no import cycle among modules; (b) a module takes another module only through its `index.ts`, never its
 * files; (c) only a module's routes (`*.routes.ts`) import `src/http/`, for the request plumbing (actorOf,
 * contentLanguage); the domain's types (Actor, AppError, iso, ContentLanguage) live in `src/shared/`.
 */
const SOURCE = /\.(ts|mts|mjs|js)$/;
const SPECIFIER = /(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

function importsOf(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) => match[1] ?? match[2] ?? '').filter((s) => s.startsWith('.'));
}

/** Every violation of the three rules in the server tree at `src` (the folder holding modules/, http/, shared/). */
export function moduleImportViolations(src: string): string[] {
  const modulesDir = join(src, 'modules');
  const httpDir = join(src, 'http');
  const violations: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const file of filesUnder(modulesDir)) {
    const [module = ''] = relative(modulesDir, file).split('/');
    const from = relative(src, file);
    edges.set(module, edges.get(module) ?? new Set());
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), specifier);
      if (target.startsWith(`${httpDir}/`) && !file.endsWith('.routes.ts')) {
        violations.push(`${from} imports ${relative(src, target)}: only routes take the HTTP plumbing`);
      }
      if (!target.startsWith(`${modulesDir}/`)) continue;
      const [other = '', ...rest] = relative(modulesDir, target).split('/');
      if (other === module) continue;
      edges.get(module)?.add(other);
      if (rest.join('/') !== 'index.ts') {
        violations.push(`${from} imports ${relative(src, target)}: another module only through its index.ts`);
      }
    }
  }
  violations.push(...cyclesOf(edges).map((cycle) => `import cycle among modules: ${cycle.join(' -> ')}`));
  return violations;
}

/** One cycle through each module that is on one (depth-first, each cycle reported once by its first module). */
function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (module: string) => {
    if (done.has(module)) return;
    const at = onPath.indexOf(module);
    if (at >= 0) {
      cycles.push([...onPath.slice(at), module]);
      return;
    }
    onPath.push(module);
    for (const next of [...(edges.get(module) ?? [])].sort()) visit(next);
    onPath.pop();
    done.add(module);
  };
  for (const module of [...edges.keys()].sort()) visit(module);
  return cycles;
}

describe('server module imports', () => {
  const server = join(dirname(fileURLToPath(import.meta.url)), '..');

  it('has no cycle, no reach into another module, and no domain type from http/', () => {
    expect(moduleImportViolations(join(server, 'src'))).toEqual([]);
  });

  describe('fails on a deliberate violation of each rule', () => {
    const root = mkdtempSync(join(tmpdir(), 'module-imports-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    let trees = 0;
    /** A small server tree: path → source. */
    const tree = (files: Record<string, string>) => {
      const src = join(root, String(trees++));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(src, path)), { recursive: true });
        writeFileSync(join(src, path), text);
      }
      return src;
    };
    const layered = {
      'http/auth.ts': 'export const actorOf = () => null;\n',
      'shared/errors.ts': 'export class AppError extends Error {}\n',
      'modules/users/index.ts': "export { createUsersRepo } from './users.repo.ts';\n",
      'modules/users/users.repo.ts': "import { AppError } from '../../shared/errors.ts';\nexport const x = AppError;\n",
      'modules/orgs/index.ts': "import type { UsersRepo } from '../users/index.ts';\nexport type Y = UsersRepo;\n",
      'modules/orgs/orgs.routes.ts': "import { actorOf } from '../../http/auth.ts';\nexport const r = actorOf;\n",
    };

    it('passes a layered tree', () => {
      expect(moduleImportViolations(tree(layered))).toEqual([]);
    });

    it('(a) an import cycle, type imports too', () => {
      const src = tree({
        ...layered,
        'modules/users/users.service.ts': "import type { Y } from '../orgs/index.ts';\nexport type Z = Y;\n",
      });
      expect(moduleImportViolations(src)).toEqual(['import cycle among modules: orgs -> users -> orgs']);
    });

    it("(b) an import of another module's file", () => {
      const src = tree({
        ...layered,
        'modules/orgs/orgs.service.ts': "import { x } from '../users/users.repo.ts';\nexport const y = x;\n",
      });
      expect(moduleImportViolations(src)).toEqual([
        'modules/orgs/orgs.service.ts imports modules/users/users.repo.ts: another module only through its index.ts',
      ]);
    });

    it('(c) a domain file importing from http/', () => {
      const src = tree({
        ...layered,
        'http/errors.ts': 'export class AppError extends Error {}\n',
        'modules/orgs/orgs.service.ts': "export { AppError } from '../../http/errors.ts';\n",
      });
      expect(moduleImportViolations(src)).toEqual([
        'modules/orgs/orgs.service.ts imports http/errors.ts: only routes take the HTTP plumbing',
      ]);
    });
  });
});
