import { ignoredFamily, replayStart, type EventFamily, type RuntimeEvent } from '../../shared/events';
import { describeStubsReached, stubStatement } from '../../shared/stubsReached';
import { formatDuration, formatTokens, formatUsageLine, oneLine } from './format';
import type { FamilyLines, LineContext } from './liveTreeLine';

const RUN_LINES = {
  'run.started': (e, c) => {
    c.taskCount = e.process === 'flow' ? undefined : e.stepIds.length;
    const unit = e.process === 'flow' ? 'method' : 'task';
    return `${c.s.bold(`▶ ${e.documentName}`)} ${c.s.dim(`· ${e.process} · ${e.stepIds.length} ${unit}${e.stepIds.length === 1 ? '' : 's'} · ${e.runId}`)}${
      e.replayOf ? c.s.dim(` · replay of ${e.replayOf.runId} from ${replayStart(e.replayOf)}`) : ''
    }`;
  },
  'run.paused': (e, c) => {
    if (e.reason === 'budget') return `${c.s.magenta('⏸ paused')} after ${formatDuration(e.durationMs)}: the budget is reached before ${e.methodId}; resume with a higher cap`;
    if (e.reason === 'human') return `${c.s.magenta('⏸ paused')} after ${formatDuration(e.durationMs)}: waiting for a person in ${e.methodId}`;
    return `${c.s.magenta('⏸ paused')} after ${formatDuration(e.durationMs)}: waiting for feedback on ${e.methodId}`;
  },
  'run.resumed': (e, c) => `${c.s.magenta('▶ resumed')} ${c.s.dim(`after ${formatDuration(e.pausedForMs)}`)}`,
  'run.completed': (e, c) => {
    if (e.stubsReached?.length) return `${c.s.yellow('⚠ completed')} with ${describeStubsReached(e.stubsReached)} · in ${formatDuration(e.durationMs)} · ${formatUsageLine(e.tokenUsage)}`;
    return `${c.s.green('✓ completed')} in ${formatDuration(e.durationMs)} · ${formatUsageLine(e.tokenUsage)}`;
  },
  'run.failed': (e, c) => `${c.s.red('✗ failed')} after ${formatDuration(e.durationMs)}${c.reason(e.error)}`,
  'run.cancelled': (e, c) => `${c.s.yellow('■ cancelled')} after ${formatDuration(e.durationMs)}: ${e.reason}`,
} satisfies FamilyLines<'run'>;

const BUDGET_LINES = {
  'budget.reached': null,
} satisfies FamilyLines<'budget'>;

const TRAINING_LINES = ignoredFamily('training') satisfies FamilyLines<'training'>;

const TEST_LINES = ignoredFamily('test') satisfies FamilyLines<'test'>;

const FLOW_LINES = {
  'flow.method.started': (e, c) => `${c.s.bold(`▸ ${e.methodName}`)} ${c.s.dim(`${e.bodyType} · ${e.trigger}${e.triggeredBy ? ` ← ${e.triggeredBy}` : ''}${e.call > 1 ? ` · call ${e.call}` : ''}`)}`,
  'flow.route': (e, c) => `${c.s.blue('↳')} route ${c.s.bold(e.route)} ${c.s.dim(`— ${oneLine(e.reason, 80)}`)}`,
  'flow.method.completed': (e, c) => {
    if (e.restoredFrom) return `${c.s.blue('↺')} ${e.methodName} ${c.s.dim(`restored from ${e.restoredFrom}: ${oneLine(e.output, 60)}`)}`;
    return `${c.s.green('✓')} ${e.methodName} ${c.took(e.durationMs)}${e.changed.length ? c.s.dim(` · state: ${e.changed.join(', ')}`) : ''} ${c.s.dim(`→ ${oneLine(e.output, 60)}`)}`;
  },
  'flow.method.failed': (e, c) => `${c.s.red('✗')} ${e.methodName} failed${c.reason(e.error)}`,
  'flow.method.paused': (e, c) => `${c.s.magenta('⏸')} ${e.methodName} paused ${c.s.dim(`— ${e.message}`)}`,
  'flow.stub.reached': (e, c) => {
    // The Python a stub stands for, from its first statement (the `def` line says nothing new).
    const statement = stubStatement(e.python);
    return `${c.s.yellow('⚠')} ${e.methodName} is a stub for CrewAI Python ${c.s.dim(`(${e.file}:${e.line}${statement ? `: ${oneLine(statement, 60)}` : ''})`)}: it passed its input on unchanged`;
  },
  'flow.item.started': (e, c) => `${c.s.bold(`▸ item ${e.index + 1}/${e.total}`)} ${c.s.dim(oneLine(e.item, 60))}`,
  'flow.item.completed': (e, c) => e.restoredFrom
  ? `${c.s.blue('↺')} item ${e.index + 1}/${e.total} ${c.s.dim(`done earlier, not run again: ${oneLine(e.output, 60)}`)}`
  : `${c.s.green('✓')} item ${e.index + 1}/${e.total} ${c.took(e.durationMs)} ${c.s.dim(`→ ${oneLine(e.output, 60)}`)}`,
  'flow.item.failed': (e, c) => `${c.s.red('✗')} item ${e.index + 1}/${e.total} failed${c.reason(e.error)}`,
  'flow.item.paused': (e, c) => `${c.s.magenta('⏸')} item ${e.index + 1}/${e.total} paused ${c.s.dim(`— ${e.message}; it runs again when the run resumes`)}`,
} satisfies FamilyLines<'flow'>;

const PLANNING_LINES = {
  'planning.started': null,
  'planning.completed': (e, c) => `${c.s.cyan('✎ planned')} ${Object.keys(e.plans).length} task(s)`,
  'planning.failed': (e, c) => `${c.s.red('✗')} planning failed${c.reason(e.error)}`,
} satisfies FamilyLines<'planning'>;

const TASK_LINES = {
  'task.started': (e, c) => `${c.s.bold(`▸ task ${e.index + 1}${c.taskCount === undefined ? '' : `/${c.taskCount}`} ${e.taskId}`)}${e.taskName ? ` ${c.s.dim(e.taskName)}` : ''} ${c.s.dim('—')} ${e.agentRole}${e.async ? c.s.dim(' (async)') : ''}`,
  'task.completed': (e, c) => {
    if (e.restoredFrom) return `${c.s.blue('↺')} task ${e.taskId} ${c.s.dim(`restored from ${e.restoredFrom}: ${oneLine(e.raw, 60)}`)}`;
    return `${c.s.green('✓')} task ${e.taskId} ${c.took(e.durationMs)} ${c.s.dim(formatTokens(e.tokenUsage))}${e.outputFile ? c.s.dim(` → ${e.outputFile}`) : ''}${c.readNote(e.readAs)}`;
  },
  'task.failed': (e, c) => `${c.s.red('✗')} task ${e.taskId} failed${c.reason(e.error)}`,
  'task.paused': (e, c) => `${c.s.magenta('⏸')} task ${e.taskId} paused ${c.s.dim(`— ${e.message}; ${e.reason === 'human' ? 'it goes on with the answer' : 'it runs again'} when the run resumes`)}`,
  'task.skipped': (e, c) => `${c.s.yellow('⤼')} task ${e.taskId} skipped ${c.s.dim(`— ${e.reason}`)}`,
  'task.retrying': (e, c) => `${c.s.yellow('↻')} retry ${e.attempt - 1}/${e.maxRetries} ${c.s.dim(`— ${oneLine(e.reason, 100)}`)}`,
} satisfies FamilyLines<'task'>;

const MEMORY_LINES = {
  'memory.write.committed': (e, c) => {
    const parts = [`${e.inserted} new`, e.updated ? `${e.updated} updated` : '', e.deleted ? `${e.deleted} deleted` : '', e.skipped ? `${e.skipped} duplicate${e.skipped === 1 ? '' : 's'} skipped` : '']
      .filter(Boolean)
      .join(' · ');
    return `${c.s.green('◆')} memory ${c.s.dim(`(task ${e.taskId}):`)} ${parts}`;
  },
  'memory.write.discarded': (e, c) => `${c.s.yellow('◇')} memory discarded ${c.s.dim(`(task ${e.taskId}, attempt ${e.attempt}): ${e.dropped} staged — ${oneLine(e.reason, 80)}`)}`,
  'memory.write.failed': (e, c) => `${c.s.red('✗')} memory write failed ${c.s.dim(`(task ${e.taskId}):`)} ${oneLine(e.error, 100)}`,
  'memory.recall': null,
  'memory.write.staged': null,
  'memory.write.skipped': null,
  'memory.write.decision': null,
} satisfies FamilyLines<'memory'>;

const KNOWLEDGE_LINES = {
  'knowledge.retrieved': null,
} satisfies FamilyLines<'knowledge'>;

const AGENT_LINES = {
  'agent.started': (e, c) => `${c.s.magenta('●')} ${e.role} ${c.s.dim(`(${e.model}${e.tools.length ? `, ${e.mode} tools: ${e.tools.join(', ')}` : ''})`)}${e.delegatedBy ? c.s.dim(` ← from ${e.delegatedBy}`) : ''}`,
  'agent.completed': (e, c) => `${c.s.dim('○')} ${e.role} answered ${c.took(e.durationMs)} ${c.s.dim(`${e.iterations} step${e.iterations === 1 ? '' : 's'} · ${formatTokens(e.tokenUsage)}`)}${c.readNote(e.readAs)}`,
  'agent.failed': (e, c) => `${c.s.red('✗')} ${e.role} failed${c.reason(e.error)}`,
  'agent.paused': null, // its task says so
} satisfies FamilyLines<'agent'>;

const LLM_LINES = {
  'llm.started': null,
  'llm.chunk': null,
  'llm.completed': (e, c) => {
    const calls = e.toolCalls.length ? ` → ${e.toolCalls.map((c) => c.name).join(', ')}` : '';
    return c.s.dim(`· model ${e.model} ${formatDuration(e.latencyMs)} ${formatTokens(e.usage)}${calls}`);
  },
  'llm.failed': (e, c) => e.willRetry
  ? `${c.s.yellow('!')} model error${e.status ? ` ${e.status}` : ''}: ${oneLine(e.error, 80)} ${c.s.dim(`(retrying, attempt ${e.attempt})`)}`
  : `${c.s.red('✗')} model call failed${c.reason(e.error)}`,
} satisfies FamilyLines<'llm'>;

const EMBEDDING_LINES = {
  'embedding.completed': (e, c) => c.s.dim(`· embedding ${e.model} ${formatDuration(e.durationMs)} ${e.texts} text${e.texts === 1 ? '' : 's'} ${formatTokens(e.usage)}`),
} satisfies FamilyLines<'embedding'>;

const TOOL_LINES = {
  'tool.started': (e, c) => {
    if (e.readAs?.length) c.toolReadAs.set(e.spanId, e.readAs);
    return undefined;
  },
  'tool.completed': (e, c) => `${c.s.cyan('⚒')} ${e.tool} ${c.s.dim('→')} ${oneLine(e.result, 70)} ${c.took(e.durationMs)}${c.toolNote(e.spanId)}`,
  'tool.cached': (e, c) => `${c.s.cyan('⚒')} ${e.tool} ${c.s.dim('→')} ${oneLine(e.result, 70)} ${c.s.dim('(cached)')}${c.toolNote(e.spanId)}`,
  'tool.failed': (e, c) => `${c.s.red('✗')} ${e.tool}: ${oneLine(e.error, 100)}${c.toolNote(e.spanId)}`,
  'tool.blocked': (e, c) => `${c.s.yellow('⊘')} ${e.tool} blocked ${c.s.dim(`(${e.by})`)}: ${oneLine(e.reason, 90)}${c.toolNote(e.spanId)}`,
  'tool.output': null,
} satisfies FamilyLines<'tool'>;

const DELEGATION_LINES = {
  'delegation.started': (e, c) => `${c.s.blue('⇢')} ${e.manager} ${e.kind === 'ask' ? 'asks' : 'delegates to'} ${c.s.bold(e.coworker)}: ${c.s.dim(`"${oneLine(e.task, 70)}"`)}`,
  'delegation.completed': (e, c) => `${c.s.blue('⇠')} ${e.coworker} answered ${c.took(e.durationMs)}`,
  'delegation.failed': (e, c) => `${c.s.red('✗')} delegation to "${e.requestedCoworker}" failed: ${oneLine(e.error, 100)}`,
} satisfies FamilyLines<'delegation'>;

const GUARDRAIL_LINES = {
  'guardrail.started': null,
  'guardrail.passed': (e, c) => `${c.s.green('✓')} guardrail ${e.guardrailType}${e.replaced ? c.s.dim(' (replaced the output)') : ''}`,
  'guardrail.failed': (e, c) => `${c.s.red('✗')} guardrail ${e.guardrailType}: ${oneLine(e.reason, 100)}`,
} satisfies FamilyLines<'guardrail'>;

const HUMAN_LINES = {
  'human.requested': (e, c) => {
    if (e.kind === 'flow_feedback') return `${c.s.yellow('?')} feedback requested: ${oneLine(e.prompt, 80)}`;
    return `${c.s.yellow('?')} ${e.kind === 'tool_approval' ? `approval needed for ${e.tool}` : 'waiting for human review'}`;
  },
  'human.answered': (e, c) => {
    if (e.kind === 'tool_approval') return `${c.s.yellow('✓')} human: ${e.decision}`;
    if (e.kind === 'flow_feedback') return `${c.s.yellow('✎')} feedback ${c.s.dim(`"${oneLine(e.feedback ?? '', 60)}"`)}${e.outcome ? ` → ${c.s.bold(e.outcome)}` : ''}`;
    return e.feedback?.trim() ? `${c.s.yellow('✎')} human feedback: ${c.s.dim(`"${oneLine(e.feedback, 70)}"`)}` : `${c.s.green('✓')} human accepted`;
  },
} satisfies FamilyLines<'human'>;

/** Every event family's lines in the CLI's live tree (`null`: the event prints no line). A family or event missing here does not compile. */
export const LIVE_TREE_LINES = {
  run: RUN_LINES,
  budget: BUDGET_LINES,
  training: TRAINING_LINES,
  test: TEST_LINES,
  flow: FLOW_LINES,
  planning: PLANNING_LINES,
  task: TASK_LINES,
  memory: MEMORY_LINES,
  knowledge: KNOWLEDGE_LINES,
  agent: AGENT_LINES,
  llm: LLM_LINES,
  embedding: EMBEDDING_LINES,
  tool: TOOL_LINES,
  delegation: DELEGATION_LINES,
  guardrail: GUARDRAIL_LINES,
  human: HUMAN_LINES,
} satisfies { [F in EventFamily]: FamilyLines<F> };

type AnyLine = ((e: RuntimeEvent, c: LineContext) => string | undefined) | null;
// The lines by event type. The line registered for a type takes that type's events, which TypeScript
// cannot follow through a lookup by `e.type`: the one place the correlation is asserted.
const BY_TYPE = new Map<string, AnyLine>(Object.values(LIVE_TREE_LINES).flatMap((family) => Object.entries(family) as [string, AnyLine][]));

/** The live-tree line of one event, or undefined when it prints none. */
export function lineOf(e: RuntimeEvent, c: LineContext): string | undefined {
  return BY_TYPE.get(e.type)?.(e, c) ?? undefined;
}
