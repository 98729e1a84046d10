import { replayStart, type ReadAs, type RuntimeEvent } from '../../shared/events';
import { describeStubsReached, stubStatement } from '../../shared/stubsReached';
import { formatDuration, formatTokens, formatUsageLine, oneLine } from './format';
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
  /** The crew's task count; undefined in a flow, whose crews' task counts no event gives. */
  private taskCount: number | undefined = 0;
  /** A failure is shown once, where it happened; enclosing spans that fail with it just say so. */
  private lastError = '';
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private statusShown = false;
  private paused = false;
  private readonly now: () => number;

  constructor(private readonly options: LiveTreeOptions) {
    this.now = options.now ?? Date.now;
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

  private describe(e: RuntimeEvent): string | undefined {
    const s = this.options.style;
    const took = (ms: number) => s.dim(formatDuration(ms));
    switch (e.type) {
      case 'run.started': {
        this.taskCount = e.process === 'flow' ? undefined : e.stepIds.length;
        const unit = e.process === 'flow' ? 'method' : 'task';
        return `${s.bold(`▶ ${e.documentName}`)} ${s.dim(`· ${e.process} · ${e.stepIds.length} ${unit}${e.stepIds.length === 1 ? '' : 's'} · ${e.runId}`)}${
          e.replayOf ? s.dim(` · replay of ${e.replayOf.runId} from ${replayStart(e.replayOf)}`) : ''
        }`;
      }
      case 'run.paused':
        if (e.reason === 'budget') return `${s.magenta('⏸ paused')} after ${formatDuration(e.durationMs)}: the budget is reached before ${e.methodId}; resume with a higher cap`;
        if (e.reason === 'human') return `${s.magenta('⏸ paused')} after ${formatDuration(e.durationMs)}: waiting for a person in ${e.methodId}`;
        return `${s.magenta('⏸ paused')} after ${formatDuration(e.durationMs)}: waiting for feedback on ${e.methodId}`;
      case 'run.resumed':
        return `${s.magenta('▶ resumed')} ${s.dim(`after ${formatDuration(e.pausedForMs)}`)}`;
      case 'flow.method.started':
        return `${s.bold(`▸ ${e.methodName}`)} ${s.dim(`${e.bodyType} · ${e.trigger}${e.triggeredBy ? ` ← ${e.triggeredBy}` : ''}${e.call > 1 ? ` · call ${e.call}` : ''}`)}`;
      case 'flow.route':
        return `${s.blue('↳')} route ${s.bold(e.route)} ${s.dim(`— ${oneLine(e.reason, 80)}`)}`;
      case 'flow.method.completed':
        if (e.restoredFrom) return `${s.blue('↺')} ${e.methodName} ${s.dim(`restored from ${e.restoredFrom}: ${oneLine(e.output, 60)}`)}`;
        return `${s.green('✓')} ${e.methodName} ${took(e.durationMs)}${e.changed.length ? s.dim(` · state: ${e.changed.join(', ')}`) : ''} ${s.dim(`→ ${oneLine(e.output, 60)}`)}`;
      case 'flow.method.failed':
        return `${s.red('✗')} ${e.methodName} failed${this.reason(e.error)}`;
      case 'flow.method.paused':
        return `${s.magenta('⏸')} ${e.methodName} paused ${s.dim(`— ${e.message}`)}`;
      case 'flow.stub.reached': {
        // The Python a stub stands for, from its first statement (the `def` line says nothing new).
        const statement = stubStatement(e.python);
        return `${s.yellow('⚠')} ${e.methodName} is a stub for CrewAI Python ${s.dim(`(${e.file}:${e.line}${statement ? `: ${oneLine(statement, 60)}` : ''})`)}: it passed its input on unchanged`;
      }
      case 'flow.item.started':
        return `${s.bold(`▸ item ${e.index + 1}/${e.total}`)} ${s.dim(oneLine(e.item, 60))}`;
      case 'flow.item.completed':
        return e.restoredFrom
          ? `${s.blue('↺')} item ${e.index + 1}/${e.total} ${s.dim(`done earlier, not run again: ${oneLine(e.output, 60)}`)}`
          : `${s.green('✓')} item ${e.index + 1}/${e.total} ${took(e.durationMs)} ${s.dim(`→ ${oneLine(e.output, 60)}`)}`;
      case 'flow.item.failed':
        return `${s.red('✗')} item ${e.index + 1}/${e.total} failed${this.reason(e.error)}`;
      case 'flow.item.paused':
        return `${s.magenta('⏸')} item ${e.index + 1}/${e.total} paused ${s.dim(`— ${e.message}; it runs again when the run resumes`)}`;
      case 'run.completed':
        if (e.stubsReached?.length) return `${s.yellow('⚠ completed')} with ${describeStubsReached(e.stubsReached)} · in ${formatDuration(e.durationMs)} · ${formatUsageLine(e.tokenUsage)}`;
        return `${s.green('✓ completed')} in ${formatDuration(e.durationMs)} · ${formatUsageLine(e.tokenUsage)}`;
      case 'run.failed':
        return `${s.red('✗ failed')} after ${formatDuration(e.durationMs)}${this.reason(e.error)}`;
      case 'run.cancelled':
        return `${s.yellow('■ cancelled')} after ${formatDuration(e.durationMs)}: ${e.reason}`;
      case 'planning.started':
        return undefined;
      case 'planning.completed':
        return `${s.cyan('✎ planned')} ${Object.keys(e.plans).length} task(s)`;
      case 'planning.failed':
        return `${s.red('✗')} planning failed${this.reason(e.error)}`;
      case 'task.started':
        return `${s.bold(`▸ task ${e.index + 1}${this.taskCount === undefined ? '' : `/${this.taskCount}`} ${e.taskId}`)}${e.taskName ? ` ${s.dim(e.taskName)}` : ''} ${s.dim('—')} ${e.agentRole}${e.async ? s.dim(' (async)') : ''}`;
      case 'task.completed':
        if (e.restoredFrom) return `${s.blue('↺')} task ${e.taskId} ${s.dim(`restored from ${e.restoredFrom}: ${oneLine(e.raw, 60)}`)}`;
        return `${s.green('✓')} task ${e.taskId} ${took(e.durationMs)} ${s.dim(formatTokens(e.tokenUsage))}${e.outputFile ? s.dim(` → ${e.outputFile}`) : ''}${this.readNote(e.readAs)}`;
      case 'task.failed':
        return `${s.red('✗')} task ${e.taskId} failed${this.reason(e.error)}`;
      case 'task.paused':
        return `${s.magenta('⏸')} task ${e.taskId} paused ${s.dim(`— ${e.message}; ${e.reason === 'human' ? 'it goes on with the answer' : 'it runs again'} when the run resumes`)}`;
      case 'task.skipped':
        return `${s.yellow('⤼')} task ${e.taskId} skipped ${s.dim(`— ${e.reason}`)}`;
      case 'task.retrying':
        return `${s.yellow('↻')} retry ${e.attempt - 1}/${e.maxRetries} ${s.dim(`— ${oneLine(e.reason, 100)}`)}`;
      case 'agent.started':
        return `${s.magenta('●')} ${e.role} ${s.dim(`(${e.model}${e.tools.length ? `, ${e.mode} tools: ${e.tools.join(', ')}` : ''})`)}${e.delegatedBy ? s.dim(` ← from ${e.delegatedBy}`) : ''}`;
      case 'agent.completed':
        return `${s.dim('○')} ${e.role} answered ${took(e.durationMs)} ${s.dim(`${e.iterations} step${e.iterations === 1 ? '' : 's'} · ${formatTokens(e.tokenUsage)}`)}${this.readNote(e.readAs)}`;
      case 'agent.failed':
        return `${s.red('✗')} ${e.role} failed${this.reason(e.error)}`;
      case 'agent.paused':
        return undefined; // its task says so
      case 'llm.started':
      case 'llm.chunk':
        return undefined;
      case 'llm.completed': {
        const calls = e.toolCalls.length ? ` → ${e.toolCalls.map((c) => c.name).join(', ')}` : '';
        return s.dim(`· model ${e.model} ${formatDuration(e.latencyMs)} ${formatTokens(e.usage)}${calls}`);
      }
      case 'embedding.completed':
        return s.dim(`· embedding ${e.model} ${formatDuration(e.durationMs)} ${e.texts} text${e.texts === 1 ? '' : 's'} ${formatTokens(e.usage)}`);
      case 'llm.failed':
        return e.willRetry
          ? `${s.yellow('!')} model error${e.status ? ` ${e.status}` : ''}: ${oneLine(e.error, 80)} ${s.dim(`(retrying, attempt ${e.attempt})`)}`
          : `${s.red('✗')} model call failed${this.reason(e.error)}`;
      case 'tool.started':
        if (e.readAs?.length) this.toolReadAs.set(e.spanId, e.readAs);
        return undefined;
      case 'tool.completed':
        return `${s.cyan('⚒')} ${e.tool} ${s.dim('→')} ${oneLine(e.result, 70)} ${took(e.durationMs)}${this.toolNote(e.spanId)}`;
      case 'tool.cached':
        return `${s.cyan('⚒')} ${e.tool} ${s.dim('→')} ${oneLine(e.result, 70)} ${s.dim('(cached)')}${this.toolNote(e.spanId)}`;
      case 'tool.failed':
        return `${s.red('✗')} ${e.tool}: ${oneLine(e.error, 100)}${this.toolNote(e.spanId)}`;
      case 'tool.blocked':
        return `${s.yellow('⊘')} ${e.tool} blocked ${s.dim(`(${e.by})`)}: ${oneLine(e.reason, 90)}${this.toolNote(e.spanId)}`;
      case 'delegation.started':
        return `${s.blue('⇢')} ${e.manager} ${e.kind === 'ask' ? 'asks' : 'delegates to'} ${s.bold(e.coworker)}: ${s.dim(`"${oneLine(e.task, 70)}"`)}`;
      case 'delegation.completed':
        return `${s.blue('⇠')} ${e.coworker} answered ${took(e.durationMs)}`;
      case 'delegation.failed':
        return `${s.red('✗')} delegation to "${e.requestedCoworker}" failed: ${oneLine(e.error, 100)}`;
      case 'guardrail.started':
        return undefined;
      case 'guardrail.passed':
        return `${s.green('✓')} guardrail ${e.guardrailType}${e.replaced ? s.dim(' (replaced the output)') : ''}`;
      case 'guardrail.failed':
        return `${s.red('✗')} guardrail ${e.guardrailType}: ${oneLine(e.reason, 100)}`;
      case 'memory.write.committed': {
        const parts = [`${e.inserted} new`, e.updated ? `${e.updated} updated` : '', e.deleted ? `${e.deleted} deleted` : '', e.skipped ? `${e.skipped} duplicate${e.skipped === 1 ? '' : 's'} skipped` : '']
          .filter(Boolean)
          .join(' · ');
        return `${s.green('◆')} memory ${s.dim(`(task ${e.taskId}):`)} ${parts}`;
      }
      case 'memory.write.discarded':
        return `${s.yellow('◇')} memory discarded ${s.dim(`(task ${e.taskId}, attempt ${e.attempt}): ${e.dropped} staged — ${oneLine(e.reason, 80)}`)}`;
      case 'memory.write.failed':
        return `${s.red('✗')} memory write failed ${s.dim(`(task ${e.taskId}):`)} ${oneLine(e.error, 100)}`;
      case 'human.requested':
        if (e.kind === 'flow_feedback') return `${s.yellow('?')} feedback requested: ${oneLine(e.prompt, 80)}`;
        return `${s.yellow('?')} ${e.kind === 'tool_approval' ? `approval needed for ${e.tool}` : 'waiting for human review'}`;
      case 'human.answered':
        if (e.kind === 'tool_approval') return `${s.yellow('✓')} human: ${e.decision}`;
        if (e.kind === 'flow_feedback') return `${s.yellow('✎')} feedback ${s.dim(`"${oneLine(e.feedback ?? '', 60)}"`)}${e.outcome ? ` → ${s.bold(e.outcome)}` : ''}`;
        return e.feedback?.trim() ? `${s.yellow('✎')} human feedback: ${s.dim(`"${oneLine(e.feedback, 70)}"`)}` : `${s.green('✓')} human accepted`;
    }
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
    this.frame = (this.frame + 1) % FRAMES.length;
    const more = entries.length > 1 ? this.options.style.dim(` (+${entries.length - 1} running)`) : '';
    const line = `${this.options.style.cyan(FRAMES[this.frame])} ${current.label} ${this.options.style.dim(formatDuration(this.now() - current.since))}${more}`;
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
