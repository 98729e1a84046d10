import type { TokenUsage } from '../../shared/usage';
import type { ChatModel } from '../llm/chatModel';
import type { ToolUse } from '../tools/policyGate';
import type { AgentIdentity } from './prompt';

export interface AgentSettings extends AgentIdentity {
  id: string;
  maxIter: number;
  maxExecutionTimeMs?: number;
  respectContextWindow: boolean;
  cache: boolean;
}

export interface AgentExecution {
  agent: AgentSettings;
  model: ChatModel;
  tools: ToolUse[];
  taskId: string;
  /** The user message: task, context and everything else the agent should know. */
  prompt: string;
  /** Ask a human to review the final answer until they accept it. */
  humanInput: boolean;
  /** What the reviewer is shown as the task. */
  reviewPrompt?: string;
  delegatedBy?: string;
  /** The suggestion version in the prompt, named in `agent.started`. */
  suggestions?: { version: number; count: number };
}

export interface AgentResult {
  output: string;
  iterations: number;
  usage: TokenUsage;
}
