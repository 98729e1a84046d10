// Builds what `crewdeck` runs from dist/: the CLI bundle (runtime + shared; packages external, commands
// split into chunks loaded on demand), the renderer (vite), and the Electron shell's entries.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';

const only = process.argv[2];

if (!only || only === 'cli') {
  rmSync(new URL('../dist/cli', import.meta.url), { recursive: true, force: true });
  await build({
    entryPoints: { main: 'runtime/cli/main.ts' },
    outdir: 'dist/cli',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (!only || only === 'renderer') {
  const vite = await import('vite');
  await vite.build({ configFile: 'vite.renderer.config.ts', logLevel: 'warn' });
}

if ((!only || only === 'electron') && existsSync(new URL('./buildElectron.mjs', import.meta.url))) {
  const { buildElectron } = await import('./buildElectron.mjs');
  await buildElectron();
}
