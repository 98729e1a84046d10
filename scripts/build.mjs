// Bundles the CLI (runtime + shared) into dist/ so `npx crewdeck` starts fast with plain Node.
// Packages stay external; commands are split into chunks loaded on demand.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

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
