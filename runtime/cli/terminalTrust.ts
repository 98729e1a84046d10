import { createInterface } from 'node:readline/promises';
import type { WorkspaceSettings } from '../../shared/model/workspace';
import { describeHeldParts, type HeldPart } from '../trust/heldParts';
import { WorkspaceTrust } from '../trust/workspaceTrust';
import type { Style } from './style';

/** What `crewdeck trust` and the prompt before a run print: each held part, one line each. */
export function formatTrustSummary(parts: readonly HeldPart[], style: Style): string {
  const lines = describeHeldParts(parts).map((line) => `  • ${line}`);
  return `${style.bold('This workspace will run commands, send secrets or reach other hosts:')}\n${lines.join('\n')}\n`;
}

/**
 * Before a run from a terminal: if the workspace has held parts that are not trusted, show them and
 * ask (only when a person is there: stdin and stdout are terminals and the output is not --json).
 * Without a person, or when the answer is no, nothing is recorded and the runtime refuses any run that
 * needs a held part (WorkspaceUntrusted, exit 2, naming `crewdeck trust`).
 */
export async function confirmTrustAtTerminal(workspace: string, settings: WorkspaceSettings | undefined, json: boolean, style: Style): Promise<void> {
  if (json || !process.stdin.isTTY || !process.stdout.isTTY) return;
  const trust = new WorkspaceTrust(workspace);
  const status = trust.status(settings);
  if (status.trusted) return;
  process.stdout.write(formatTrustSummary(status.untrusted, style));
  if (await askYesNo('Trust this workspace and run it? [y/N] ')) {
    trust.grant(settings);
    process.stdout.write(style.dim('Trusted (undo with crewdeck trust --revoke).\n'));
  }
}

export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
