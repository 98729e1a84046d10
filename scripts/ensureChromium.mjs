// Makes Chromium available for the e2e tests the way `playwright install-deps` would: use the one on
// the machine (CHROMIUM_PATH, or Debian's /usr/bin/chromium), else install Debian's package when we
// are root, else stop with the exact command to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(Boolean);
const found = () => candidates.find((p) => existsSync(p));

if (!found()) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt) {
    console.log('e2e: Chromium is missing; installing Debian\'s chromium package (apt-get install -y chromium)…');
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'inherit' });
  }
}
const path = found();
if (!path) {
  console.error(
    'e2e: no Chromium found. Install it and run again:\n' +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at a Chromium/Chrome binary.',
  );
  process.exit(1);
}
