import type { ChatMessageRecord, LlmPurpose, ToolCallRecord } from '../../shared/events';
import type { TokenUsage } from '../../shared/usage';
import type { ModelPrice } from '../../shared/model/prices';

export interface ChatToolSchema {
  name: string;
  description: string;
  /** JSON Schema (an object schema) for the arguments. */
  parameters: Record<string, unknown>;
}

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown> };

export interface RetryNotice {
  attempt: number;
  status?: number;
  error: string;
  delayMs: number;
}

/** Who asks for a model call, as an offline re-run matches it to its recording (runtime/offline). */
export interface CallSite {
  purpose: LlmPurpose;
  /** The task the call belongs to; in a flow outside any task, the method. */
  taskId?: string;
  methodId?: string;
  agentRole?: string;
}

export interface ChatRequest {
  messages: ChatMessageRecord[];
  tools?: ChatToolSchema[];
  stop?: string[];
  responseFormat?: ResponseFormat;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** Streaming deltas of the reply's text, when the provider streams. */
  onChunk?: (delta: string) => void;
  /** Called before each retry of a failed call (429, 5xx, network). */
  onRetry?: (notice: RetryNotice) => void;
  /** Who asks (purpose, task or flow method, agent role): a recorded model answers by it. */
  site?: CallSite;
}

export interface ChatResponse {
  content: string;
  toolCalls: ToolCallRecord[];
  finishReason: string;
  usage: TokenUsage;
}

/** One interface for every model provider. */
export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  /** False makes agents use the ReAct text protocol instead of native tool calls. */
  readonly supportsNativeTools: boolean;
  /** What its tokens cost (set by the model resolver from the price table); calls have no cost without it. */
  price?: ModelPrice;
  chat(request: ChatRequest): Promise<ChatResponse>;
}
