import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The JavaScript of a Vite build, read from its manifest: chunk sizes (gzip, level 9) and what loads with what. */
export function readBundle(spaDir: string) {
  const manifest = JSON.parse(readFileSync(join(spaDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const gzip = new Map<string, number>();
  const sizeOf = (key: string) => {
    const file = manifest[key]?.file ?? key;
    let size = gzip.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(join(spaDir, file)), { level: 9 }).length;
      gzip.set(file, size);
    }
    return size;
  };
  const js = Object.entries(manifest).filter(([, chunk]) => chunk.file.endsWith('.js'));
  const entry = js.find(([, chunk]) => chunk.isEntry)?.[0];
  if (!entry) throw new Error('The build manifest names no entry');
  /** Every chunk that loads with these before anything else runs (their static imports, transitively). */
  const withImports = (keys: string[]) => {
    const seen = new Set<string>();
    const todo = [...keys];
    for (let key = todo.pop(); key !== undefined; key = todo.pop()) {
      const chunk = manifest[key];
      if (seen.has(key) || !chunk) continue;
      seen.add(key);
      todo.push(...(chunk.imports ?? []));
    }
    return [...seen].filter((key) => manifest[key]?.file.endsWith('.js'));
  };
  return {
    /** gzip bytes per chunk name (hash-free: 'start', 'DashboardPage'); chunks of one name add up. */
    chunks(): Record<string, number> {
      const sizes: Record<string, number> = {};
      for (const [key, chunk] of js) {
        const name = chunk.name ?? chunk.file;
        sizes[name] = (sizes[name] ?? 0) + sizeOf(key);
      }
      return sizes;
    },
    /**
     * gzip bytes of the JavaScript a first visit loads: the entry, the app's start and the page's module, which is a
     * chunk of its own or part of the first load's chunks (the dashboard, ADR 0039; their source maps name it).
     */
    firstLoad(pageModule: string): number {
      const start = withImports([entry, 'src/app/start.tsx']);
      // The bundler's own runtime chunk has no source map.
      const sourcesOf = (file: string) =>
        existsSync(join(spaDir, `${file}.map`))
          ? (JSON.parse(readFileSync(join(spaDir, `${file}.map`), 'utf8')) as { sources: string[] }).sources
          : [];
      const inStart = start.some((key) =>
        sourcesOf(manifest[key]?.file ?? key).some((source) => source.endsWith(`/${pageModule}`)),
      );
      if (!manifest[pageModule] && !inStart) throw new Error(`${pageModule} is not part of the build's JavaScript`);
      return withImports([...start, pageModule]).reduce((sum, key) => sum + sizeOf(key), 0);
    },
  };
}
