import type { FlowDocument } from '../../shared/model/flow';
import { loadCrewFile } from '../document/loadDocument';
import { resolveWorkspaceDocument } from '../document/workspaceDocument';

const MCP_REF = /^mcp:([^/\s]+)\//;

/** The MCP servers a document's tool references name (`{ tool: "mcp:<server>/<tool>" }` anywhere in it). */
export function mcpServersIn(document: unknown, into = new Set<string>()): Set<string> {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const match = key === 'tool' && typeof item === 'string' ? MCP_REF.exec(item) : null;
        if (match) into.add(match[1]!);
        else visit(item);
      }
    }
  };
  visit(document);
  return into;
}

/** The MCP servers a flow needs: its own references and those of the crew files its methods run. */
export function mcpServersInFlow(flow: FlowDocument, workspace: string): Set<string> {
  const servers = mcpServersIn(flow);
  for (const method of flow.methods) {
    if (method.body.type !== 'crew') continue;
    try {
      mcpServersIn(loadCrewFile(resolveWorkspaceDocument(workspace, method.body.file).file), servers);
    } catch {
      // A crew file that cannot be read fails its method later, with its own message.
    }
  }
  return servers;
}
