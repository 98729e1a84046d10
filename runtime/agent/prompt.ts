import type { ChatToolSchema } from '../llm/chatModel';

export interface AgentIdentity {
  role: string;
  goal: string;
  backstory: string;
  /** Skills the agent can load with `load_skill` (listed by name and description). */
  skills?: { name: string; description: string }[];
}

export type ToolMode = 'native' | 'react' | 'none';

export interface TaskPromptParts {
  description: string;
  expectedOutput: string;
  /** JSON Schema the answer must follow, when the task asks for JSON. */
  outputSchema?: Record<string, unknown>;
  outputFormat?: 'text' | 'json' | 'markdown';
  /** Outputs of earlier tasks (or the context a coworker was given). */
  context?: string;
  /** Further blocks: recalled memories, knowledge, trained instructions. Each has a heading. */
  extras?: { heading: string; body: string }[];
}

export function systemPrompt(agent: AgentIdentity, mode: ToolMode, tools: ChatToolSchema[]): string {
  const lines = [`You are ${agent.role}.`];
  if (agent.backstory.trim()) lines.push(agent.backstory.trim());
  lines.push(`Your personal goal is: ${agent.goal}`);
  if (agent.skills?.length) lines.push('', skillsSection(agent.skills));
  if (mode === 'native') {
    lines.push(
      '',
      'You can call the tools you are given. Call a tool only when it helps; use its result in your work.',
      'When you have the complete answer, reply with the answer itself (not a description of it) and call no tool.',
    );
  } else if (mode === 'react') {
    lines.push('', reactInstructions(tools));
  } else {
    lines.push('', 'Reply with your complete final answer.');
  }
  return lines.join('\n');
}

/** The agent's skills, for its system prompt: names and descriptions only; `load_skill` gives the instructions. */
export function skillsSection(skills: { name: string; description: string }[]): string {
  return `You have these skills. Before you use one, call the load_skill tool with its name to read its instructions:\n${skillList(skills)}`;
}

/** One `- name — description` line per skill. */
export function skillList(skills: { name: string; description: string }[]): string {
  return skills.map((s) => `- ${s.name}${s.description ? ` — ${s.description}` : ''}`).join('\n');
}

export function reactInstructions(tools: ChatToolSchema[]): string {
  const list = tools
    .map((t) => `- ${t.name}: ${t.description}\n  Arguments (JSON Schema): ${JSON.stringify(t.parameters)}`)
    .join('\n');
  return [
    'You have access to these tools:',
    list,
    '',
    'To use a tool, reply in exactly this format and then stop:',
    'Thought: what you are thinking',
    `Action: the tool name, one of [${tools.map((t) => t.name).join(', ')}]`,
    'Action Input: the arguments as a JSON object',
    '',
    'You will then get:',
    'Observation: the tool result',
    '',
    'When you have the complete answer, reply in this format:',
    'Thought: I now know the final answer',
    'Final Answer: the complete answer itself',
  ].join('\n');
}

export function taskPrompt(parts: TaskPromptParts): string {
  const sections = [`Current task: ${parts.description}`, '', `This is the expected criteria for your final answer: ${parts.expectedOutput}`];
  if (parts.outputSchema) {
    sections.push('', `Your final answer must be JSON that follows this JSON Schema:\n${JSON.stringify(parts.outputSchema, null, 2)}`);
  } else if (parts.outputFormat === 'json') {
    sections.push('', 'Your final answer must be valid JSON.');
  } else if (parts.outputFormat === 'markdown') {
    sections.push('', 'Format your final answer as Markdown.');
  }
  if (parts.context && parts.context.trim()) {
    sections.push('', `This is the context you are working with:\n${parts.context}`);
  }
  for (const extra of parts.extras ?? []) {
    if (extra.body.trim()) sections.push('', `${extra.heading}:\n${extra.body}`);
  }
  sections.push('', 'You must return the actual complete content as the final answer, not a summary.');
  return sections.join('\n');
}

/** A role's trained suggestions as a prompt block: instructions the agent must follow. */
export function trainedInstructions(suggestions: string[]): { heading: string; body: string } {
  return { heading: 'You MUST follow these instructions (learned from human feedback in training)', body: suggestions.map((s) => `- ${s}`).join('\n') };
}

export const FORCE_FINAL_ANSWER =
  'You have used the maximum number of steps for this task. Do not call any more tools. ' +
  'Give your best complete final answer now, based on what you have so far.';

export const EMPTY_REPLY_NUDGE = 'Your reply was empty. Either call a tool or give your complete final answer.';

export function humanFeedbackPrompt(feedback: string): string {
  return `A human reviewed your final answer and gave this feedback:\n${feedback}\n\nRevise your final answer to address the feedback and give the complete revised answer.`;
}

export function guardrailRetryNote(reason: string, rejected: string): string {
  return [
    'Your previous answer to this task was rejected.',
    `Reason: ${reason}`,
    'Rejected answer:',
    rejected,
    '',
    'Fix the problem and give the complete final answer again.',
  ].join('\n');
}
