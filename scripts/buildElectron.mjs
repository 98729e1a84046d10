// Bundles the Electron shell into dist/electron/ (CommonJS: the package is "type": "module", and
// sandboxed preloads cannot be ESM):
//   main.cjs         main process            (package.json "main")
//   preload.cjs      contextBridge preload   (self-contained: a sandboxed preload can require only electron)
//   runtimeHost.cjs  the runtime, forked by main with utilityProcess
//   sandboxWorker.cjs the worker thread of the runtime's QuickJS scripts
// npm packages stay external (better-sqlite3 is native; electron is provided by Electron itself).
import { build } from 'esbuild';
import { copyFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds into `outdir` (relative to the repository; default dist/electron) and returns the files written.
 * The bundles find their packages through node_modules, so `outdir` must be inside the repository.
 */
export async function buildElectron({ outdir = 'dist/electron', sourcemap = 'linked' } = {}) {
  outdir = resolve(root, outdir);
  rmSync(outdir, { recursive: true, force: true });
  const common = {
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap,
    logLevel: 'warning',
    outExtension: { '.js': '.cjs' },
    outdir,
  };
  await Promise.all([
    build({ ...common, entryPoints: { main: 'electron/main/main.ts' }, packages: 'external' }),
    build({ ...common, entryPoints: { runtimeHost: 'electron/runtime/runtimeHost.ts' }, packages: 'external', ...importMetaUrlShim() }),
    // The worker thread the runtime's QuickJS scripts run on (runtime/script/scriptWorker.ts finds it here).
    build({ ...common, entryPoints: { sandboxWorker: 'runtime/script/sandboxWorker.ts' }, packages: 'external' }),
    // Everything but electron is bundled: the preload imports only our own small modules.
    build({ ...common, entryPoints: { preload: 'electron/preload/preload.ts' }, external: ['electron'], target: 'chrome130' }),
  ]);
  // The Python tool bridge (runtime/mcp/pythonBridge.ts finds it next to the runtime's bundle).
  copyFileSync(resolve(root, 'runtime/mcp/crewdeck_bridge.py'), resolve(outdir, 'crewdeck_bridge.py'));
  return ['main', 'preload', 'runtimeHost', 'sandboxWorker'].map((name) => resolve(outdir, `${name}.cjs`));
}

/** The runtime reads package.json through createRequire(import.meta.url); CommonJS has no import.meta. */
function importMetaUrlShim() {
  return {
    define: { 'import.meta.url': '__crewdeckImportMetaUrl' },
    banner: { js: 'const __crewdeckImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = await buildElectron();
  process.stdout.write(`built ${written.join(', ')}\n`);
}
