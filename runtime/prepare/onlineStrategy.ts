import { McpServers } from '../mcp/mcpServers';
import type { RunMemoryStore } from '../memory/runMemory';
import type { Embedder } from '../memory/types';
import { openWorkspaceMemory, workspaceEmbedder } from '../memory/workspaceMemory';
import type { ToolRegistry } from '../tools/registry';
import { userModelServers } from '../trust/userModelServers';
import { modelResolver, type RunParts, type RunStrategy } from './runStrategy';
import type { RuntimeSetup } from './runtimeSetup';

/**
 * Runs that reach the network: the configured models and embedder, MCP servers started per run, the
 * workspace's memory (one store for all its runs), and a reach that includes the user's model servers.
 */
export function onlineStrategy(setup: RuntimeSetup): RunStrategy {
  const env = setup.env ?? process.env;
  const mcp = new McpServers(setup.settings?.mcp, { workspace: setup.workspace, env, trust: setup.trust });
  let workspaceMemory: Promise<RunMemoryStore> | undefined;
  const parts: RunParts = {
    recording: undefined,
    models: (documentPath) => modelResolver(setup, documentPath, undefined),
    withTools: (servers, run) => withMcp(mcp, setup.tools, servers, run),
    memory: async () => setup.memory ?? (await (workspaceMemory ??= openWorkspaceMemory(setup.workspace, { settings: setup.settings, env, trust: setup.trust }))),
    // Read at every check: the user's model servers may change while the runtime lives.
    reach: () => ({ tools: true, knowledge: true, servers: userModelServers(process.env, env.OPENAI_BASE_URL) }),
  };
  return { embedder: retriedEmbedder(setup), begin: () => parts };
}

/**
 * One embedder for the runs' knowledge, made when a run first needs it (an OpenAI-compatible embedder
 * asks its server for the vector size); a server that was down is asked again by the next run.
 */
function retriedEmbedder(setup: RuntimeSetup): () => Promise<Embedder> {
  let embedding: Promise<Embedder> | undefined;
  return () =>
    (embedding ??= workspaceEmbedder(setup.settings?.memory?.embedder, setup.env, setup.trust, setup.settings?.prices).catch((error: unknown) => {
      embedding = undefined;
      throw error;
    }));
}

async function withMcp<T>(mcp: McpServers, tools: ToolRegistry, servers: Set<string>, run: (tools: ToolRegistry) => Promise<T>): Promise<T> {
  if (servers.size === 0) return run(tools);
  const session = mcp.session();
  try {
    return await run(await session.registryFor(tools, servers));
  } finally {
    await session.close();
  }
}
