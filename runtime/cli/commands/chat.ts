import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChatTurn } from '../../../shared/model/crew';
import { chatCrew } from '../../chat/chatCrew';
import { flowAgentCrew } from '../../chat/flowAgentCrew';
import { loadWorkspaceDocument } from '../../document/workspaceDocument';
import { parseInputs, parseOptions } from '../options';
import { workspaceFlag } from '../session';
import { withTerminalRuntime } from '../sessionRuntime';
import { EXIT, UsageError } from '../usage';

const OPTIONS = {
  agent: { type: 'string', short: 'a' },
  message: { type: 'string', short: 'm' },
  input: { type: 'string', multiple: true, short: 'i' },
  inputs: { type: 'string' },
  workspace: { type: 'string', short: 'w' },
  json: { type: 'boolean', default: false },
} as const;

/**
 * `crewdeck chat <file> --agent ID [-m TEXT] [-w DIR] [--json]`: talks to one agent of a crew (or an
 * agent method of a flow), as the app's chat pane does: each reply is a small run with its own trace.
 * Messages are read a line at a time from the terminal (or a pipe) until end of input; `-m` sends one.
 */
export async function chatCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  const [given] = positionals;
  if (given === undefined || positionals.length !== 1) throw new UsageError('chat needs exactly one crew or flow file');
  const file = resolve(given);
  const workspace = values.workspace ?? dirname(file);
  const json = values.json ?? false;
  const inputs = parseInputs(values.input, values.inputs);
  return withTerminalRuntime({ workspace, json, documentPath: file }, async (t) => {
    const loaded = loadWorkspaceDocument(t.workspace, file);
    const agents = loaded.kind === 'flow' ? loaded.doc.methods.filter((m) => m.body.type === 'agent').map((m) => m.id) : loaded.doc.agents.map((a) => a.id);
    const agentId = values.agent ?? (agents.length === 1 ? agents[0] : undefined);
    if (agentId === undefined) throw new UsageError(`chat needs --agent ID: ${loaded.shown} has ${agents.length === 0 ? 'no agents' : `the agents ${agents.join(', ')}`}`);
    const crew = loaded.kind === 'flow' ? flowAgentCrew(loaded.doc, agentId) : loaded.doc;
    const role = crew.agents.find((a) => a.id === agentId)?.role ?? agentId;
    const history: ChatTurn[] = [];
    let failed = false;

    const reply = async (message: string) => {
      const chat = chatCrew(crew, { agentId, history, message, inputs });
      const result = await t.runtime.runCrew(chat.doc, { inputs: chat.inputs, purpose: chat.purpose, documentPath: file, signal: t.signal, onEvent: t.onEvent });
      t.stopTree();
      const ok = result.status === 'completed';
      if (ok) history.push({ role: 'user', text: message }, { role: 'agent', text: result.output });
      else failed = true;
      if (json) {
        process.stdout.write(`${JSON.stringify({ runId: result.runId, status: result.status, message, reply: result.output, ...(result.error ? { error: result.error.message } : {}), tokenUsage: result.tokenUsage })}\n`);
      } else if (ok) {
        // The live tree above has shown the run's steps and usage; the reply itself, and where its trace is.
        process.stdout.write(`\n${t.style.bold(role)}: ${result.output}\n${t.style.dim(`trace: crewdeck runs show ${result.runId}${workspaceFlag(t.workspace)}`)}\n\n`);
      } else {
        process.stdout.write(`\n${t.style.red(`The reply ${result.status}`)}: ${result.error?.message ?? ''}\n\n`);
      }
    };

    if (values.message !== undefined) {
      await reply(values.message);
      return failed ? EXIT.runFailed : EXIT.ok;
    }
    const interactive = Boolean(process.stdin.isTTY) && !json;
    if (interactive) process.stdout.write(t.style.dim(`Chatting with ${role} (${loaded.shown}). Each reply is a run of its own; an empty line or Ctrl-D ends the chat.\n\n`));
    const lines = createInterface({ input: process.stdin, ...(interactive ? { output: process.stdout, prompt: 'you> ' } : {}) });
    if (interactive) lines.prompt();
    for await (const line of lines) {
      const message = line.trim();
      if (message === '') {
        if (interactive) break;
        continue;
      }
      await reply(message);
      if (t.signal.aborted) break;
      if (interactive) lines.prompt();
    }
    lines.close();
    return failed ? EXIT.runFailed : EXIT.ok;
  });
}
