import type { ReadAs, RuntimeEvent } from '../../shared/events';
import { formatDuration } from './format';
import type { LineContext } from './liveTreeLine';
import { lineOf } from './liveTreeLines';
import type { Style } from './style';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface LiveTreeOptions {
  out: NodeJS.WritableStream;
  style: Style;
  /** Redraw a spinner line for what is running now (terminals only). */
  spinner: boolean;
  now?: () => number;
}

/**
 * Renders the event stream as an indented tree: task → agent → model / tool / delegation / guardrail.
 * Lines are printed as things happen; on a terminal a spinner line at the bottom shows what is running.
 */
export class LiveTree {
  private readonly depth = new Map<string, number>();
  private readonly active = new Map<string, { label: string; since: number }>();
  /** How each running tool call was read from the model's reply (tool.started's readAs, by span). */
  private readonly toolReadAs = new Map<string, ReadAs[]>();
  /** A failure is shown once, where it happened; enclosing spans that fail with it just say so. */
  private lastError = '';
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private statusShown = false;
  private paused = false;
  private readonly now: () => number;

  /** What the lines read and keep (the crew's task count: undefined in a flow, whose crews' task counts no event gives). */
  private readonly context: LineContext;

  constructor(private readonly options: LiveTreeOptions) {
    this.now = options.now ?? Date.now;
    this.context = {
      s: options.style,
      took: (ms) => options.style.dim(formatDuration(ms)),
      reason: (error) => this.reason(error),
      readNote: (readAs) => this.readNote(readAs),
      toolNote: (spanId) => this.toolNote(spanId),
      toolReadAs: this.toolReadAs,
      taskCount: 0,
    };
  }

  start(): void {
    if (this.options.spinner && !this.timer) {
      this.timer = setInterval(() => this.drawStatus(), 80);
      this.timer.unref();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clearStatus();
  }

  /** Stops drawing while someone types an answer at the terminal. */
  pause(): void {
    this.paused = true;
    this.clearStatus();
  }

  resume(): void {
    this.paused = false;
  }

  handle(event: RuntimeEvent): void {
    const depth = event.parentSpanId === undefined ? 0 : (this.depth.get(event.parentSpanId) ?? 0) + 1;
    if (!this.depth.has(event.spanId)) this.depth.set(event.spanId, depth);
    const line = this.describe(event);
    this.track(event);
    if (line !== undefined) this.print(this.depth.get(event.spanId) ?? depth, line);
  }

  /** A line of the caller's own at the top level (a batch run's row counter). */
  note(text: string): void {
    this.print(0, text);
  }

  private print(depth: number, text: string): void {
    this.clearStatus();
    const indent = '  '.repeat(Math.max(0, depth - 1));
    this.options.out.write(`${indent}${text}\n`);
  }

  /** The event's line, from its family's registered lines (runtime/cli/liveTreeLines.ts). */
  private describe(e: RuntimeEvent): string | undefined {
    return lineOf(e, this.context);
  }

  /** " (read from text)" for a tool call the model wrote as text, else how its name was read, or ''. */
  private toolNote(spanId: string): string {
    const readAs = this.toolReadAs.get(spanId);
    this.toolReadAs.delete(spanId);
    if (!readAs) return '';
    if (readAs.includes('text-tool-call')) return this.options.style.dim(' (read from text)');
    return this.readNote(readAs);
  }

  /** A short note when a lenient reading changed what the model literally wrote (README: Local models). */
  private readNote(readAs: readonly ReadAs[] | undefined): string {
    return readAs?.length ? this.options.style.dim(` (read as ${readAs.join(', ')})`) : '';
  }

  private reason(error: string): string {
    if (error === this.lastError) return '';
    this.lastError = error;
    return `: ${error}`;
  }

  private track(e: RuntimeEvent): void {
    const start = (label: string): void => void this.active.set(e.spanId, { label, since: e.ts });
    switch (e.type) {
      case 'planning.started':
        return start('planning');
      case 'task.started':
        return start(`task ${e.taskId}`);
      case 'agent.started':
        return start(e.role);
      case 'llm.started':
        return start(`${e.agentRole ?? e.purpose} · ${e.model}`);
      case 'tool.started':
        return start(`${e.agentRole} · ${e.tool}`);
      case 'delegation.started':
        return start(`${e.coworker} working for ${e.manager}`);
      case 'guardrail.started':
        return start(`guardrail ${e.guardrailType}`);
      case 'human.requested':
        return start('waiting for a human');
      case 'flow.method.started':
        return start(e.methodName);
      case 'flow.method.completed':
      case 'flow.method.failed':
      case 'flow.method.paused':
      case 'human.answered':
      case 'planning.completed':
      case 'planning.failed':
      case 'task.completed':
      case 'task.failed':
      case 'task.paused':
      case 'agent.completed':
      case 'agent.failed':
      case 'agent.paused':
      case 'llm.completed':
      case 'tool.completed':
      case 'tool.failed':
      case 'tool.blocked':
      case 'tool.cached':
      case 'delegation.completed':
      case 'delegation.failed':
      case 'guardrail.passed':
      case 'guardrail.failed':
        this.active.delete(e.spanId);
        return;
      case 'llm.failed':
        if (!e.willRetry) this.active.delete(e.spanId);
        return;
      default:
        return;
    }
  }

  private drawStatus(): void {
    if (this.paused || this.active.size === 0) return this.clearStatus();
    const entries = [...this.active.values()];
    const current = entries[entries.length - 1];
    if (!current) return this.clearStatus();
    this.frame = (this.frame + 1) % FRAMES.length;
    const more = entries.length > 1 ? this.options.style.dim(` (+${entries.length - 1} running)`) : '';
    const line = `${this.options.style.cyan(FRAMES[this.frame] ?? '')} ${current.label} ${this.options.style.dim(formatDuration(this.now() - current.since))}${more}`;
    this.options.out.write(`\r\x1b[2K${line}`);
    this.statusShown = true;
  }

  private clearStatus(): void {
    if (this.statusShown) {
      this.options.out.write('\r\x1b[2K');
      this.statusShown = false;
    }
  }
}
