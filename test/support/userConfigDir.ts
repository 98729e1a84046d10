import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Workspace trust is recorded in the user's config folder: tests (and the CLI children they start,
// which inherit this environment) use a fresh temporary one and never touch the real home.
process.env.CREWDECK_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'crewdeck-config-'));
// The tests' user runs their model servers on this machine (the scripted OpenAI-compatible server of
// test/support/ listens on 127.0.0.1): their own settings say so, so a document's model with a loopback
// baseUrl needs no workspace trust. test/security/untrustedNetworkReach.test.ts uses a user without it.
writeFileSync(join(process.env.CREWDECK_CONFIG_DIR, 'settings.json'), `${JSON.stringify({ modelServers: ['127.0.0.1', 'localhost', '[::1]'] })}\n`);
