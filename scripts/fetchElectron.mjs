// Optional postinstall: tries Electron's own binary download, which npm's `allowScripts` skips so that
// offline installs succeed. Never fails the install: without the binary `npm start` uses browser mode.
// Skipped when CI or ELECTRON_SKIP_BINARY_DOWNLOAD is set; CREWDECK_ELECTRON_TIMEOUT_MS bounds it (default 120 s).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const installer = fileURLToPath(new URL('../node_modules/electron/install.js', import.meta.url));
const timeoutMs = Number(process.env.CREWDECK_ELECTRON_TIMEOUT_MS ?? 120_000);

const note = (line) => process.stdout.write(`crewdeck: ${line}\n`);

if (process.env.CI) {
  note('CI is set; not downloading Electron (browser mode works without it)');
} else if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  note('ELECTRON_SKIP_BINARY_DOWNLOAD is set; not downloading Electron');
} else if (!existsSync(installer)) {
  note('the electron package is not installed; skipping its download');
} else {
  const child = spawn(process.execPath, [installer], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const timer = setTimeout(() => {
    child.kill('SIGKILL');
    note(`Electron's download took longer than ${Math.round(timeoutMs / 1000)} s; stopped it. \`npm start\` will use browser mode (retry: node node_modules/electron/install.js)`);
  }, timeoutMs);
  child.on('exit', (code, signal) => {
    clearTimeout(timer);
    if (signal) return;
    if (code === 0) note('Electron is installed; `npm start` opens the desktop app');
    else {
      const reason = stderr.trim().split('\n').find((line) => line.trim()) ?? `exit code ${code}`;
      note(`could not download Electron (${reason.slice(0, 200)}); \`npm start\` will use browser mode`);
    }
  });
}
process.exitCode = 0;
