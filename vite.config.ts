import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { resolveBrand } from './contract/src/brand/brands.ts';
import { type Brand, brandSchema, externalHttpsUrlSchema } from './contract/src/brand/schema.ts';
import { buildBasemap } from './src/features/catalogue/basemap-geometry.ts';
import { spaContentSecurityPolicy } from './src/lib/content-security-policy.ts';

const DEFAULT_DESCRIPTION = 'GNSS correction platform with real-time RTK and RINEX post-processing data.';

/**
 * Puts the brand into index.html: title (the product name), description, favicon and theme colour.
 * resolveBrand throws for an unknown VITE_BRAND, listing the allowed keys, and brandSchema for an invalid brand, so
 * such a build fails at once.
 */
function brandHtml(brand: Brand): Plugin {
  return {
    name: 'portal-brand-html',
    transformIndexHtml: () => [
      { tag: 'title', children: brand.name, injectTo: 'head' },
      { tag: 'meta', attrs: { name: 'description', content: DEFAULT_DESCRIPTION }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'icon', type: 'image/svg+xml', href: brand.favicon }, injectTo: 'head' },
      { tag: 'meta', attrs: { name: 'theme-color', content: '#0b0e13' }, injectTo: 'head' },
    ],
  };
}

/**
 * Puts the build's Content Security Policy right after the charset, before any script, so it covers the whole page
 * wherever dist/ is served; the portal server sends it as a header too. Not in the dev server, whose inline
 * scripts it would block.
 */
function contentSecurityPolicy(policy: string): Plugin {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}" />`;
  return {
    name: 'portal-content-security-policy',
    apply: 'build',
    transformIndexHtml: (html) => {
      const charset = /<meta charset="[^"]*" \/>/;
      if (!charset.test(html)) throw new Error('index.html: the charset meta tag the CSP goes after is missing');
      return html.replace(charset, (tag) => `${tag}\n    ${meta}`);
    },
  };
}

/**
 * The offline basemap as a file of its own (basemap-geometry.ts): emitted with a fingerprint into the build, served
 * at /basemap.json by the dev server; `virtual:offline-basemap` is its address.
 */
function offlineBasemap(): Plugin {
  const id = 'virtual:offline-basemap';
  let json: string | undefined;
  const make = () => {
    const file = createRequire(import.meta.url).resolve('world-atlas/countries-110m.json');
    json ??= JSON.stringify(buildBasemap(JSON.parse(readFileSync(file, 'utf8'))));
    return json;
  };
  return {
    name: 'portal-offline-basemap',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      if (this.meta.watchMode) return "export default '/basemap.json';";
      const ref = this.emitFile({ type: 'asset', name: 'basemap.json', source: make() });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
    configureServer(server) {
      server.middlewares.use('/basemap.json', (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(make());
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), '');
  const brand = brandSchema.parse(resolveBrand(env.VITE_BRAND));
  // The documentation link on /help, when set, must be a page that can exist (as a brand's own terms link).
  if (env.VITE_DOCS_URL) externalHttpsUrlSchema.parse(env.VITE_DOCS_URL);
  const apiTarget = env.DEV_API_TARGET ?? 'http://localhost:8080';
  return {
    plugins: [
      react(),
      tailwindcss(),
      offlineBasemap(),
      brandHtml(brand),
      contentSecurityPolicy(spaContentSecurityPolicy(env, { tagManager: Boolean(brand.gtmContainerId) })),
    ],
    define: { 'import.meta.env.VITE_BRAND': JSON.stringify(brand.key) },
    server: { port: 5173, proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
    // The manifest lets the size budget (tests/e2e/size-budget.e2e.ts) follow what each page loads.
    build: {
      sourcemap: true,
      chunkSizeWarningLimit: 900,
      manifest: true,
      // Every browser the portal supports preloads modules itself (Chrome 66, Firefox 115, Safari 17).
      modulePreload: { polyfill: false },
      // What a first visit needs before it can draw (main.tsx, start.tsx and their static imports) in one chunk: 19
      // files were 4.6 KiB gzip more (each compressed alone) and more requests on a slow connection (ADR 0030); with
      // it the error block 22 pages show when a call fails. The other groups join what the first query of a page
      // always loads together, which rolldown would otherwise cut into chunks of a few hundred bytes, each
      // compressed alone (issue 39, ADR 0093): React Query with the app's client and the answers' typing (not the
      // mutation and multi-query parts, which a page that only reads does not load), the catalogue's data, and the
      // token prices with the billing calls; the last two take only the modules they name.
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              {
                name: 'app',
                test: /[\\/]src[\\/](main\.tsx|app[\\/]start\.tsx|components[\\/]GenericErrorBlock\.tsx)$/,
                priority: 2,
              },
              {
                name: 'react-query',
                test: /[\\/]node_modules[\\/]@tanstack[\\/](?!.*[\\/](useQueries|queriesObserver|useMutation|mutationObserver)\.js$)|[\\/]src[\\/]lib[\\/](queries\.tsx|answer\.ts)$/,
                priority: 1,
              },
              {
                name: 'catalogue.hooks',
                test: /[\\/]src[\\/]features[\\/]catalogue[\\/](catalogue\.(hooks|api)|basemap|reference-frame)\.ts$|virtual:offline-basemap/,
                priority: 1,
                includeDependenciesRecursively: false,
              },
              {
                name: 'billing.api',
                test: /[\\/]src[\\/]features[\\/]billing[\\/](billing\.api|token-money)\.ts$/,
                priority: 1,
                includeDependenciesRecursively: false,
              },
            ],
          },
        },
      },
    },
  };
});
