import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The SPA's layers (docs/architecture.md, ADR 0097): `app/` puts the features together; a feature
 * (`src/features/<name>/`) may import other features, but the features' imports form no cycle, so they stand in
 * floors, each above what it uses; `components/` and `lib/` are below every feature and import none. A feature has
 * no barrel file: it imports another feature's file by name (a barrel would join chunks the build keeps apart).
 * Imports are read as text from the sources: static imports, `export … from`, and `import()` (a lazy import is still
 * a dependency of its importer).
 */
interface Import {
  from: string;
  to: string;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files under `src` that a file imports by a relative path, comments left out. */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  // `from '…'`, `import('…')` and a bare `import '…'`.
  return [...code.matchAll(/\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    resolve(dirname(file), m[1] ?? ''),
  );
}

/** Where a path stands: `features/<name>`, `components`, `lib`, `app`, or undefined outside `src`. */
function placeOf(src: string, path: string): string | undefined {
  const parts = relative(src, path).split(sep);
  if (parts[0] === '..' || parts.length < 2) return undefined;
  return parts[0] === 'features' ? `features/${parts[1]}` : parts[0];
}

/** Every import from one place of `src` into another, file to file (paths relative to `src`). */
function crossImports(src: string): Import[] {
  const found: Import[] = [];
  for (const file of sources(src)) {
    const from = placeOf(src, file);
    for (const target of importsOf(file)) {
      const to = placeOf(src, target);
      if (from && to && from !== to) found.push({ from: relative(src, file), to: relative(src, target) });
    }
  }
  return found;
}

const feature = (path: string) => /^features[\\/]([^\\/]+)/.exec(path)?.[1];

/**
 * The cycles among features: each strongly connected set of two or more features (Tarjan), with the imports that
 * tie it, so a failure names the files to open.
 */
function featureCycles(imports: Import[]): { features: string[]; imports: string[] }[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const a = feature(from);
    const b = feature(to);
    if (!a || !b) continue;
    edges.set(a, (edges.get(a) ?? new Set()).add(b));
    if (!edges.has(b)) edges.set(b, new Set());
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((members) => ({
    features: members,
    imports: imports
      .filter(({ from, to }) => members.includes(feature(from) ?? '') && members.includes(feature(to) ?? ''))
      .filter(({ from, to }) => feature(from) !== feature(to))
      .map(({ from, to }) => `${from} -> ${to}`),
  }));
}

/** Imports from `components/` or `lib/` into a feature: the shared floors stand below every feature. */
function sharedIntoFeatures(imports: Import[]): string[] {
  return imports
    .filter(({ from, to }) => /^(components|lib)[\\/]/.test(from) && feature(to))
    .map(({ from, to }) => `${from} -> ${to}`);
}

const src = join(__dirname, '../../src');

describe('SPA feature boundaries', () => {
  const imports = crossImports(src);

  it('reads the features’ imports, lazy ones included', () => {
    expect(imports).toContainEqual({
      from: join('features', 'accounts', 'ActivateTokensDialog.tsx'),
      to: join('features', 'billing', 'useTokenBalance'),
    });
    expect(imports.some(({ from, to }) => from === join('app', 'routes.tsx') && feature(to) === 'customers')).toBe(
      true,
    );
  });

  it('has no import cycle among features', () => {
    expect(featureCycles(imports)).toEqual([]);
  });

  it('has no import from components/ or lib/ into a feature', () => {
    expect(sharedIntoFeatures(imports)).toEqual([]);
  });
});

describe('the boundary checker, on a planted violation', () => {
  const root = mkdtempSync(join(tmpdir(), 'feature-boundaries-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function tree(files: Record<string, string>): string {
    const dir = mkdtempSync(join(root, 'src-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('fails on two features that import each other, a lazy import included', () => {
    const dir = tree({
      'features/orders/OrdersPage.tsx': "import { total } from '../money/total';\nexport const page = total;\n",
      'features/money/total.ts': "export const total = 1;\nexport const load = () => import('../orders/OrdersPage');\n",
      'features/help/Help.tsx': "import { total } from '../money/total';\nexport const help = total;\n",
    });
    expect(featureCycles(crossImports(dir))).toEqual([
      {
        features: ['money', 'orders'],
        imports: [
          `${join('features', 'money', 'total.ts')} -> ${join('features', 'orders', 'OrdersPage')}`,
          `${join('features', 'orders', 'OrdersPage.tsx')} -> ${join('features', 'money', 'total')}`,
        ],
      },
    ]);
  });

  it('fails on a cycle through three features', () => {
    const dir = tree({
      'features/a/a.ts': "export { b } from '../b/b';\n",
      'features/b/b.ts': "import { c } from '../c/c';\nexport const b = c;\n",
      'features/c/c.ts': "import type { b } from '../a/a';\nexport const c = 1 as unknown as typeof b;\n",
    });
    expect(featureCycles(crossImports(dir)).map((cycle) => cycle.features)).toEqual([['a', 'b', 'c']]);
  });

  it('does not take an import named in a comment for one', () => {
    const dir = tree({
      'features/a/a.ts': "import { b } from '../b/b';\nexport const a = b;\n",
      'features/b/b.ts': "// import { a } from '../a/a';\n/* import('../a/a') */\nexport const b = 1;\n",
    });
    expect(featureCycles(crossImports(dir))).toEqual([]);
  });

  it('fails on a shared component that imports a feature', () => {
    const dir = tree({
      'features/users/UserName.tsx': 'export const UserName = 1;\n',
      'components/Header.tsx': "import { UserName } from '../features/users/UserName';\nexport const h = UserName;\n",
      'lib/format.ts': "import '../features/users/UserName';\n",
    });
    expect(sharedIntoFeatures(crossImports(dir))).toEqual([
      `${join('components', 'Header.tsx')} -> ${join('features', 'users', 'UserName')}`,
      `${join('lib', 'format.ts')} -> ${join('features', 'users', 'UserName')}`,
    ]);
  });
});
