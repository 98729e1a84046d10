import { NoRecordedReply, type Recording } from '../offline/recording';
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
    // A call from outside a run (a test's evaluator) is not in any run's recording.
    if (!request.site) throw new NoRecordedReply(`${this.provider}:${this.model}`, 'a call outside the run (an evaluator)', 1);
    const reply = this.recording.reply(request.site);
    if (reply.content && request.onChunk) request.onChunk(reply.content);
    return { ...reply, toolCalls: reply.toolCalls.map((c) => ({ ...c })) };
  }
}
