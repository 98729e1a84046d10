import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { crewFileWarnings, loadWorkspaceSettings, validateCrewFile } from '../../document/loadDocument';
import { DocumentInvalid } from '../../errors';
import { toolKeyWarnings } from '../../../shared/model/toolWarnings';
import { documentHeldParts } from '../../trust/heldParts';
import { WORKSPACE_SETTINGS_FILE } from '../../../shared/model/workspace';
import { TrustStore } from '../../trust/trustStore';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { EXIT, UsageError } from '../usage';

export async function validateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean', default: false }, workspace: { type: 'string' } });
  if (positionals.length === 0) throw new UsageError('validate needs at least one crew file');
  const style = createStyle(colorFor(process.stdout));
  let invalid = 0;
  const report: { file: string; problems: { path: string; message: string }[]; warnings: { path: string; message: string }[] }[] = [];
  for (const name of positionals) {
    const problems = [...validateCrewFile(resolve(name)), ...settingsProblems(values.workspace ? resolve(values.workspace) : dirname(resolve(name)))];
    const warnings = [...crewFileWarnings(resolve(name)), ...(problems.length === 0 ? [...untrustedParts(resolve(name)), ...missingKeys(resolve(name))] : [])];
    report.push({ file: name, problems, warnings });
    if (problems.length > 0) invalid += 1;
    if (values.json) continue;
    if (problems.length === 0) {
      process.stdout.write(`${style.green('✓')} ${name} is valid${warnings.length > 0 ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'})` : ''}\n`);
      for (const w of warnings) process.stdout.write(`${style.yellow('!')} ${w.path}: ${w.message}\n`);
    } else {
      process.stderr.write(`${style.red('✗')} ${name}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`);
      for (const p of problems) process.stdout.write(`${p.path}: ${p.message}\n`);
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(positionals.length === 1 ? report[0] : report)}\n`);
  return invalid > 0 ? EXIT.badInput : EXIT.ok;
}

/**
 * Problems of the workspace's `crewdeck.json` (which `run` would refuse), each path led by the file's
 * name: `(crewdeck.json) models.profiles.x.provider`.
 */
function settingsProblems(workspace: string): { path: string; message: string }[] {
  try {
    loadWorkspaceSettings(workspace);
    return [];
  } catch (error) {
    if (!(error instanceof DocumentInvalid)) throw error;
    return error.problems.map((p) => ({ path: `(${WORKSPACE_SETTINGS_FILE}) ${p.path}`, message: p.message }));
  }
}

/**
 * What the file runs, sends or reaches that its workspace (the file's folder, as for `run`) has not
 * trusted: a run of it is refused until `crewdeck trust`, so validate says so (as warnings: the file is valid).
 */
function untrustedParts(file: string): { path: string; message: string }[] {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const trusted = new TrustStore().trusted(dirname(file));
  return documentHeldParts(document, basename(file))
    .filter((p) => !trusted.has(p.digest))
    .map((p) => ({ path: p.where.slice(basename(file).length + 1), message: `${p.summary}: needs workspace trust before it runs (crewdeck trust --workspace ${dirname(file)})` }));
}

/** Tools whose key variable (web search: its provider's) is not set in this environment. */
function missingKeys(file: string): { path: string; message: string }[] {
  try {
    return toolKeyWarnings(JSON.parse(readFileSync(file, 'utf8')), (variable) => Boolean(process.env[variable]));
  } catch {
    return [];
  }
}
