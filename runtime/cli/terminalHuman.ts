import { createInterface, type Interface } from 'node:readline';
import type { ToolApprovalDecision } from '../../shared/events';
import type { HumanChannel, TaskReviewRequest, ToolApprovalRequest } from '../human/humanChannel';
import type { Style } from './style';

/**
 * Asks at the terminal. Works with piped answers too (one line per question); at end of input,
 * reviews are accepted and approvals denied.
 */
export class TerminalHuman implements HumanChannel {
  private rl: Interface | undefined;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string | undefined) => void)[] = [];
  private ended = false;

  constructor(
    private readonly output: NodeJS.WritableStream,
    private readonly style: Style,
    private readonly hooks: { pause(): void; resume(): void } = { pause() {}, resume() {} },
    private readonly input: NodeJS.ReadableStream = process.stdin,
  ) {}

  async reviewTask(request: TaskReviewRequest, signal: AbortSignal): Promise<string> {
    const s = this.style;
    this.hooks.pause();
    this.output.write(
      `\n${s.bold(s.yellow(`Review the answer of ${request.agentRole}`))} ${s.dim(`(task ${request.taskId})`)}\n${s.dim('─'.repeat(60))}\n${request.output}\n${s.dim('─'.repeat(60))}\n` +
        `${s.bold('Feedback')} ${s.dim('(press Enter to accept):')} `,
    );
    const answer = await this.readLine(signal);
    this.hooks.resume();
    return answer ?? '';
  }

  async approveTool(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApprovalDecision> {
    const s = this.style;
    this.hooks.pause();
    this.output.write(
      `\n${s.bold(s.yellow(`${request.agentRole} wants to use ${request.tool}`))}\n${s.dim(JSON.stringify(request.args, null, 2))}\n` +
        `${s.bold('Allow?')} ${s.dim('[y]es / [n]o / [a]lways for this run:')} `,
    );
    for (;;) {
      const answer = (await this.readLine(signal))?.trim().toLowerCase();
      if (answer === undefined) {
        this.hooks.resume();
        return 'deny';
      }
      const decision = ({ y: 'approve', yes: 'approve', n: 'deny', no: 'deny', a: 'always', always: 'always' } as const)[answer];
      if (decision) {
        this.hooks.resume();
        return decision;
      }
      this.output.write(`${s.dim('Please answer y, n or a:')} `);
    }
  }

  close(): void {
    this.rl?.close();
  }

  /** A line of input; piped answers are echoed so the transcript reads like a typed session. */
  private async readLine(signal: AbortSignal): Promise<string | undefined> {
    const line = await this.nextLine(signal);
    if (!(this.input as { isTTY?: boolean }).isTTY) this.output.write(`${line ?? ''}\n`);
    return line;
  }

  private nextLine(signal: AbortSignal): Promise<string | undefined> {
    this.ensureReader();
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push((line) => {
        signal.removeEventListener('abort', onAbort);
        resolve(line);
      });
    });
  }

  private ensureReader(): void {
    if (this.rl) return;
    this.rl = createInterface({ input: this.input, terminal: false });
    this.rl.on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const next of this.waiting.splice(0)) next(undefined);
    });
  }
}
