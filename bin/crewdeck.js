#!/usr/bin/env node
// Entry point of the `crewdeck` command. The CLI is bundled into dist/ by `npm install` (prepare).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('crewdeck: the CLI is not built yet. Run `npm install` (or `npm run build`) in the crewdeck folder.\n');
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
