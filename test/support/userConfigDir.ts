import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Workspace trust is recorded in the user's config folder: tests (and the CLI children they start,
// which inherit this environment) use a fresh temporary one and never touch the real home.
process.env.CREWDECK_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'crewdeck-config-'));
