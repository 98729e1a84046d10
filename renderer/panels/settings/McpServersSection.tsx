import { useEffect, useState } from 'react';
import type { McpServerSettings } from '../../../shared/model/mcpSettings';
import type { WorkspaceSettings } from '../../../shared/model/workspace';
import { host } from '../../host/hostContext';
import { useSettingsStore } from '../../stores/settingsStore';
import { useTrustStore } from '../../stores/trustStore';
import { useWorkspaceStore } from '../../stores/workspaceStore';
import { freeServerName, MCP_CATALOGUE, runsPackage, type McpCatalogueEntry } from './mcpCatalogue';

/**
 * Settings → MCP servers: the servers in `crewdeck.json` (`mcp.servers`), each with where trust stands,
 * and a catalogue of well-known servers from the npm registry that one click adds as a stdio server.
 * An added server is a held part like any other: nothing runs until the workspace is trusted.
 */
export function McpServersSection() {
  const settings = useSettingsStore((s) => s.settings);
  const saving = useSettingsStore((s) => s.saving);
  const saveError = useSettingsStore((s) => s.saveError);
  const status = useTrustStore((s) => s.status);
  const workspacePath = useWorkspacePath();
  const [added, setAdded] = useState<string>();
  const servers = Object.entries(settings?.mcp?.servers ?? {});

  const save = async (next: Record<string, McpServerSettings>) => {
    if (!settings) return false;
    const { mcp: _mcp, ...rest } = settings;
    const updated: WorkspaceSettings = Object.keys(next).length > 0 ? { ...rest, mcp: { servers: next } } : rest;
    return useSettingsStore.getState().save(updated);
  };
  const add = async (entry: McpCatalogueEntry) => {
    if (!workspacePath) return;
    const name = freeServerName(entry, servers.map(([n]) => n));
    if (await save({ ...Object.fromEntries(servers), [name]: entry.server(workspacePath) })) setAdded(name);
  };
  const remove = async (name: string) => {
    if (await save(Object.fromEntries(servers.filter(([n]) => n !== name)))) setAdded((a) => (a === name ? undefined : a));
  };
  const trustOf = (name: string): 'held' | 'trusted' | undefined => {
    const parts = status?.parts.filter((p) => p.where === `crewdeck.json mcp.servers.${name}` || p.where.startsWith(`crewdeck.json mcp.servers.${name}.`)) ?? [];
    if (parts.length === 0) return undefined;
    return parts.every((p) => p.trusted) ? 'trusted' : 'held';
  };

  return (
    <section className="settings-section" aria-labelledby="settings-mcp" data-testid="settings-mcp">
      <h2 id="settings-mcp">MCP servers</h2>
      <p className="settings-help">
        Tool servers in <code>crewdeck.json</code>; their tools are <code>mcp:&lt;server&gt;/&lt;tool&gt;</code> in an agent’s tool picker. A server that runs a
        command is held until you trust this workspace.
      </p>
      {servers.length > 0 && (
        <ul className="mcp-servers" aria-label="Configured servers">
          {servers.map(([name, server]) => {
            const trust = trustOf(name);
            return (
              <li key={name} className="mcp-server" data-testid="mcp-server" data-server={name}>
                <span className="mcp-server-name">{name}</span>
                <code className="mcp-server-line" title={serverLine(server)}>
                  {serverLine(server)}
                </code>
                {trust && (
                  <span className="mcp-server-trust" data-trust={trust} data-testid="mcp-server-trust">
                    {trust === 'held' ? 'held until trusted' : 'trusted'}
                  </span>
                )}
                <button className="btn small" disabled={saving} onClick={() => void remove(name)} aria-label={`Remove ${name}`}>
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {added && trustOf(added) === 'held' && (
        <p className="mcp-added" data-testid="mcp-added">
          Added <code>{added}</code>. It does not start until you trust this workspace.{' '}
          <button type="button" className="btn small" data-testid="mcp-show-trust" onClick={() => document.querySelector('[data-testid="settings-trust"]')?.scrollIntoView({ block: 'start', behavior: 'smooth' })}>
            Review and trust…
          </button>
        </p>
      )}
      {saveError && <div className="dialog-error">{saveError}</div>}
      <h3 className="mcp-catalogue-head">Add from the npm registry</h3>
      <ul className="mcp-catalogue" data-testid="mcp-catalogue">
        {MCP_CATALOGUE.map((entry) => {
          const present = servers.find(([, s]) => runsPackage(s, entry));
          return (
            <li key={entry.name} className="mcp-entry" data-testid="mcp-entry" data-entry={entry.name}>
              <div className="mcp-entry-text">
                <span className="mcp-entry-label">{entry.label}</span>
                <code className="mcp-entry-package">
                  {entry.npm.package}@{entry.npm.version}
                </code>
                <span className="mcp-entry-desc">{entry.description}</span>
                {entry.caution && <span className="mcp-entry-caution">{entry.caution}</span>}
              </div>
              <button
                className="btn small"
                data-testid="mcp-entry-add"
                disabled={saving || !settings || !workspacePath || present !== undefined}
                onClick={() => void add(entry)}
                aria-label={present ? `${entry.label} is added as ${present[0]}` : `Add ${entry.label}`}
              >
                {present ? 'Added' : 'Add'}
              </button>
            </li>
          );
        })}
      </ul>
      <p className="settings-help">
        Each runs with <code>npx</code> (Node.js), which downloads the package on first use.
      </p>
    </section>
  );
}

/** The workspace's absolute path: the sidebar's copy, else asked once. */
function useWorkspacePath(): string | undefined {
  const known = useWorkspaceStore((s) => s.info?.path);
  const [asked, setAsked] = useState<string>();
  useEffect(() => {
    if (known) return;
    let live = true;
    host()
      .invoke('workspace.info', {})
      .then((info) => live && setAsked(info.path))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [known]);
  return known ?? asked;
}

function serverLine(server: McpServerSettings): string {
  if (server.transport === 'http') return server.url;
  if (server.transport === 'python') return `python tools: ${server.modules.join(', ')} in ${server.project}`;
  return [server.command, ...(server.args ?? [])].join(' ');
}
