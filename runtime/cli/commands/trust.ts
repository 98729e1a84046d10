import { isBadInput } from '../../badInput';
import { loadWorkspaceSettings } from '../../document/loadDocument';
import { WorkspaceTrust } from '../../trust/workspaceTrust';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { askYesNo, formatTrustSummary } from '../terminalTrust';
import { reportBadInput } from '../terminalStop';
import { EXIT, UsageError } from '../usage';
import { workspaceDir } from '../workspaceDir';

/**
 * `crewdeck trust [--workspace DIR] [--yes] [--revoke] [--json]`: shows what the workspace runs and
 * sends where, then records trust for exactly that (in the user's config folder, not the workspace).
 */
export async function trustCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    workspace: { type: 'string', short: 'w' },
    yes: { type: 'boolean', short: 'y', default: false },
    revoke: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length > 0) throw new UsageError('trust takes no arguments; name the workspace with --workspace DIR');
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  try {
    const workspace = workspaceDir(values.workspace ?? process.cwd());
    const trust = new WorkspaceTrust(workspace);
    if (values.revoke) {
      const was = trust.revoke();
      if (json) process.stdout.write(`${JSON.stringify({ revoked: was })}\n`);
      else process.stdout.write(was ? 'Trust revoked: held commands and secrets wait for crewdeck trust again.\n' : 'This workspace was not trusted.\n');
      return EXIT.ok;
    }
    const settings = loadWorkspaceSettings(workspace);
    const status = trust.status(settings);
    if (!status.needed) {
      if (json) process.stdout.write(`${JSON.stringify({ needed: false, trusted: true, parts: [] })}\n`);
      else process.stdout.write('This workspace runs no commands, sends no secrets elsewhere and reaches no local, private or other model hosts; it needs no trust.\n');
      return EXIT.ok;
    }
    if (!json) process.stdout.write(formatTrustSummary(status.parts, style));
    if (!values.yes) {
      if (json || !process.stdin.isTTY) {
        const message = 'trust needs --yes when no one is at the terminal to confirm';
        if (json) process.stdout.write(`${JSON.stringify({ status: 'invalid', error: message, parts: status.parts })}\n`);
        else process.stderr.write(`${style.red('error:')} ${message}\n`);
        return EXIT.badInput;
      }
      if (!(await askYesNo('Trust this workspace? [y/N] '))) {
        process.stdout.write('Not trusted.\n');
        return EXIT.badInput;
      }
    }
    const granted = trust.grant(settings);
    if (json) process.stdout.write(`${JSON.stringify({ needed: true, trusted: granted.trusted, parts: granted.parts })}\n`);
    else process.stdout.write('Trusted. A change to any of these needs crewdeck trust again; undo with crewdeck trust --revoke.\n');
    return EXIT.ok;
  } catch (error) {
    if (!isBadInput(error)) throw error;
    return reportBadInput(error, json, style);
  }
}
