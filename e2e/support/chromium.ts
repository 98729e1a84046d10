import { existsSync } from 'node:fs';

/** The Chromium the e2e tests drive (scripts/ensureChromium.mjs makes sure there is one). */
export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
    (p): p is string => Boolean(p) && existsSync(p!),
  );
  if (!found) throw new Error('no Chromium: run `sudo apt-get install -y chromium` or set CHROMIUM_PATH');
  return found;
}

/** Without the networking flags Chromium keeps calling home, which floods a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
