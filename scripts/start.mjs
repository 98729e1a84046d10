// `npm start [-- --workspace DIR] [-- --browser]`: the desktop app when Electron's binary is
// installed, otherwise browser mode (`crewdeck serve`). Builds dist/ first when it is missing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const inRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const args = process.argv.slice(2);
const forceBrowser = args.includes('--browser');
// npm runs scripts in the package folder: a relative --workspace means relative to where npm was typed.
const passed = withAbsoluteWorkspace(args.filter((arg) => arg !== '--browser'), process.env.INIT_CWD ?? process.cwd());

await ensureBuilt();

const electron = forceBrowser ? { reason: '--browser was given' } : findElectron();
if (electron.path) {
  run(electron.path, ['.', ...passed], { ...process.env, ELECTRON_RUN_AS_NODE: undefined });
} else {
  const hasWorkspace = passed.some((arg) => arg === '--workspace' || arg === '-w' || arg.startsWith('--workspace='));
  if (forceBrowser) process.stdout.write('Starting browser mode');
  else process.stdout.write(`Electron is not installed (${electron.reason}); starting browser mode instead`);
  // Without --workspace, serve opens the person's workspace (last used, else ~/Documents/Crewdeck), never examples/.
  process.stdout.write(hasWorkspace ? '.\n' : ' on your workspace (pass --workspace DIR for another folder).\n');
  run(process.execPath, [inRoot('bin/crewdeck.js'), 'serve', ...passed], process.env);
}

function withAbsoluteWorkspace(list, cwd) {
  return list.map((arg, i) => {
    if (arg.startsWith('--workspace=')) return `--workspace=${resolve(cwd, arg.slice('--workspace='.length))}`;
    const previous = list[i - 1];
    return previous === '--workspace' || previous === '-w' ? resolve(cwd, arg) : arg;
  });
}

/** Electron's binary path, or why there is none (its download is skipped offline: allowScripts). */
function findElectron() {
  let path;
  try {
    path = createRequire(import.meta.url)('electron');
  } catch (error) {
    const message = String(error?.message ?? error).split('\n')[0];
    return { reason: /Cannot find module/.test(message) ? 'the electron package is missing' : 'its binary was never downloaded; try `node node_modules/electron/install.js`' };
  }
  if (typeof path !== 'string' || !existsSync(path)) return { reason: `no binary at ${path}` };
  return { path };
}

async function ensureBuilt() {
  const needed = ['dist/cli/main.js', 'dist/renderer/index.html', 'dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/electron/runtimeHost.cjs'];
  const missing = needed.filter((file) => !existsSync(inRoot(file)));
  if (missing.length === 0) return;
  process.stdout.write(`Building (missing ${missing.join(', ')})…\n`);
  const code = await new Promise((resolve) => {
    spawn(process.execPath, [inRoot('scripts/build.mjs')], { cwd: root, stdio: 'inherit' }).on('exit', resolve);
  });
  if (code !== 0) process.exit(typeof code === 'number' ? code : 1);
  if (!existsSync(inRoot('dist/electron/main.cjs'))) {
    const { buildElectron } = await import('./buildElectron.mjs');
    await buildElectron();
  }
}

function run(command, commandArgs, env) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
