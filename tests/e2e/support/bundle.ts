import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { newSession } from './browser';

interface ManifestChunk {
  file: string;
  name?: string;
}

/** The JavaScript of a Vite build, read from its manifest and its files: sizes are gzip, level 9. */
export function readBundle(spaDir: string) {
  const manifest = JSON.parse(readFileSync(join(spaDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const gzip = new Map<string, number>();
  /** gzip bytes of a built file, by its path in the build ('assets/app-1a2b.js'). */
  const sizeOf = (file: string) => {
    let size = gzip.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(join(spaDir, file)), { level: 9 }).length;
      gzip.set(file, size);
    }
    return size;
  };
  const js = Object.values(manifest).filter((chunk) => chunk.file.endsWith('.js'));
  return {
    /** gzip bytes per chunk name (hash-free: 'start', 'DashboardPage'); chunks of one name add up. */
    chunks(): Record<string, number> {
      const sizes: Record<string, number> = {};
      for (const chunk of js) {
        const name = chunk.name ?? chunk.file;
        sizes[name] = (sizes[name] ?? 0) + sizeOf(chunk.file);
      }
      return sizes;
    },
    /**
     * First-visit JavaScript (issue 39): every script a fresh browser (a new context, logged out, the cookie question
     * not answered) fetches for the page until the network is idle, with no interaction, counted as the gzip size
     * of the same file in the build. Returns the files too, so that a failure names what loaded.
     */
    async firstVisit(browser: Browser, path: string): Promise<{ bytes: number; files: Record<string, number> }> {
      const session = await newSession(browser, undefined, { consentAnswered: false });
      try {
        const scripts = new Set<string>();
        // Workers are scripts the page fetches too (the map's worker), and they are not 'script' requests.
        session.context.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname.endsWith('.js') || request.resourceType() === 'script') scripts.add(request.url());
        });
        let requests = 0;
        session.context.on('request', () => requests++);
        await session.page.goto(path, { waitUntil: 'networkidle' });
        // Playwright's idle is 500 ms without a request; on a loaded machine a script can run longer than that
        // before it asks for the next one, so idle means no new request for 1.5 s after that.
        for (let seen = -1; seen !== requests; ) {
          seen = requests;
          await session.page.waitForTimeout(1_500);
          await session.page.waitForLoadState('networkidle');
        }
        const files: Record<string, number> = {};
        for (const href of scripts) {
          const url = new URL(href);
          const file = url.pathname.replace(/^\//, '');
          if (url.origin !== new URL(session.page.url()).origin) {
            throw new Error(`A first visit of ${path} fetched a script from elsewhere: ${href}`);
          }
          files[file] = sizeOf(file);
        }
        return { bytes: Object.values(files).reduce((sum, bytes) => sum + bytes, 0), files };
      } finally {
        await session.context.close();
      }
    },
  };
}
