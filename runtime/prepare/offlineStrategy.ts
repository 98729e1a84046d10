import { offlineEmbedder } from '../offline/offlineEmbedder';
import { OfflineMemory } from '../offline/offlineMemory';
import type { Recording } from '../offline/recording';
import { recordedExternalTools, recordedMcpTools } from '../offline/recordedTools';
import { modelResolver, type RunParts, type RunStrategy } from './runStrategy';
import type { RuntimeSetup } from './runtimeSetup';

/**
 * An offline re-run of `recording`: it has no network-capable parts. Models, external tools (http_request,
 * MCP), knowledge and memory recall answer from the recording; no model provider is made, no MCP server
 * starts, the configured embedder is never made; local tools run for real.
 */
export function offlineStrategy(setup: RuntimeSetup, recording: Recording): RunStrategy {
  return {
    // The offline embedder, or a refusal naming the configured one.
    embedder: () => offlineEmbedder(setup.settings?.memory?.embedder),
    begin: () => offlineParts(setup, recording.fresh()),
  };
}

/** One offline run's parts, answering from its own fresh copy of the recording (its calls counted from 1). */
function offlineParts(setup: RuntimeSetup, recording: Recording): RunParts {
  return {
    recording,
    models: (documentPath) => modelResolver(setup, documentPath, recording),
    // No server starts: its tools answer from the recording.
    withTools: async (servers, run) => run(servers.size === 0 ? recordedExternalTools(setup.tools, recording) : recordedMcpTools(setup.tools, recording, servers)),
    // Recall answers from the recording and writes reach no store: nothing is embedded by the configured embedder.
    memory: async () => new OfflineMemory(recording),
    // Nothing is reached, nothing asked for.
    reach: () => ({ tools: false, knowledge: false, servers: undefined }),
  };
}
