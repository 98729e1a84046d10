import type { Recording } from '../offline/recording';
import type { ChatModel, ChatRequest, ChatResponse } from './chatModel';

/**
 * A model that answers from a recorded run (`crewdeck run --offline <runId>`): no provider is made
 * and nothing leaves the process. It keeps the name of the model it stands for; its calls cost nothing.
 */
export class RecordedChatModel implements ChatModel {
  readonly provider: string;
  price = { inputPerMTok: 0, outputPerMTok: 0, cachedInputPerMTok: 0 };

  constructor(
    private readonly recording: Recording,
    /** The model the document names, as `provider` and `model`. */
    standsFor: { provider: string; model: string },
    readonly supportsNativeTools: boolean,
  ) {
    this.provider = standsFor.provider;
    this.model = standsFor.model;
  }
  readonly model: string;

  async chat(request: ChatRequest): Promise<ChatResponse> {
    request.signal?.throwIfAborted();
    const reply = this.recording.reply(request.site ?? { purpose: 'agent' });
    if (reply.content && request.onChunk) request.onChunk(reply.content);
    return { ...reply, toolCalls: reply.toolCalls.map((c) => ({ ...c })) };
  }
}
