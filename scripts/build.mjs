// Builds what `crewdeck` runs from dist/: the CLI bundle (runtime + shared; packages external but a few,
// see BUNDLED_PACKAGES; commands split into chunks loaded on demand), the renderer (vite), and the
// Electron shell's entries.
import { build } from 'esbuild';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';

const only = process.argv[2];

/**
 * Packages the CLI bundle carries inside itself instead of loading from node_modules: pure-JS packages
 * that every run loads and that are spread over hundreds of small modules (zod ~230, openai ~500
 * resolutions), which Node would otherwise find, read and compile one by one at each start (cold start,
 * docs/PERFORMANCE.md). Everything else stays external (native modules, and packages loaded lazily).
 */
const BUNDLED_PACKAGES = new Set(['zod', 'openai', 'jsonrepair']);

function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point' || isAbsolute(args.path)) return undefined;
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        return bundled.has(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * zod's `locales` namespace (z.locales: 40-odd languages of error messages, ~360 KB) is reachable from
 * `z`, so the bundle kept all of it; the runtime uses only English (zod's default). This keeps `en`.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

if (!only || only === 'cli') {
  rmSync(new URL('../dist/cli', import.meta.url), { recursive: true, force: true });
  await build({
    // sandboxWorker: the thread QuickJS scripts run on (runtime/script/scriptWorker.ts finds it next to the chunks).
    entryPoints: { main: 'runtime/cli/main.ts', sandboxWorker: 'runtime/script/sandboxWorker.ts' },
    outdir: 'dist/cli',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [externalExcept(BUNDLED_PACKAGES), zodEnglishOnly],
    sourcemap: 'linked',
    // Less source for Node to read and compile at each start (cold start, docs/PERFORMANCE.md); names
    // are kept, and the linked source maps give the original lines (node --enable-source-maps).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
  // The Python tool bridge: a script the project's interpreter runs (runtime/mcp/pythonBridge.ts finds it next to the chunks).
  copyFileSync(new URL('../runtime/mcp/crewdeck_bridge.py', import.meta.url), new URL('../dist/cli/crewdeck_bridge.py', import.meta.url));
}

if (!only || only === 'renderer') {
  const vite = await import('vite');
  await vite.build({ configFile: 'vite.renderer.config.ts', logLevel: 'warn' });
}

if ((!only || only === 'electron') && existsSync(new URL('./buildElectron.mjs', import.meta.url))) {
  const { buildElectron } = await import('./buildElectron.mjs');
  await buildElectron();
}
