import { useEffect, useState } from 'react';
import type { HostResponse } from '../../../shared/host-api';
import { host } from '../../host/hostContext';

export type ListedTool = HostResponse<'tools.list'>['tools'][number];

/** The workspace's MCP tools (from `tools.list`) for the tool pickers; empty if they cannot be listed. */
export function useMcpTools(): ListedTool[] {
  const [tools, setTools] = useState<ListedTool[]>([]);
  useEffect(() => {
    let live = true;
    Promise.resolve()
      .then(() => host().invoke('tools.list', {}))
      .then((r) => live && setTools(r.tools.filter((t) => t.source === 'mcp')))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return tools;
}
