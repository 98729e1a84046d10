import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORKSPACE_SETTINGS_FILE, type WorkspaceSettings } from '../../shared/model/workspace';
import { defaultPort } from '../tools/guardedFetch';
import { workspaceDocumentFiles } from '../document/workspaceDocumentFiles';
import { forEachRecord } from './documentRecords';
import { EnteredModelServers } from './enteredModelServers';
import { localHostKind, modelHostHeldPart } from './networkParts';
import { TrustStore } from './trustStore';
import { userModelServers } from './userModelServers';

/**
 * A base URL the user typed into Settings is theirs; one that arrived in a workspace someone else wrote
 * is not (docs/SECURITY.md). The renderer is untrusted and `settings.save` carries the whole file, so
 * the host cannot take "it was in the request" as "the user typed it": it looks at the workspace before
 * each save, notes the port of every model base URL already there as the workspace's (`noteSupplied`),
 * and after the save approves only keyless loopback base URLs on ports the workspace never named.
 * Saving a cloned workspace's `http://127.0.0.1:6379/v1` again, removing it and adding it back, copying
 * it out of a crew or spelling it `http://localhost:6379/x` all leave it held.
 */

/** The port a base URL reaches (its scheme's default when it names none), or undefined when it is not a URL. */
export function baseUrlPort(baseUrl: string): string | undefined {
  try {
    const url = new URL(baseUrl);
    return url.port || defaultPort(url.protocol);
  } catch {
    return undefined;
  }
}

/** Ports named by every `baseUrl` in a parsed document or settings file (models, profiles, the embedder). */
export function baseUrlPorts(document: unknown): string[] {
  const ports = new Set<string>();
  forEachRecord(document, (record) => {
    if (typeof record.baseUrl !== 'string') return;
    const port = baseUrlPort(record.baseUrl);
    if (port) ports.add(port);
  });
  return [...ports];
}

/**
 * Ports named by the `baseUrl`s of one file's text: from its JSON, or, when it is not JSON (a broken
 * `crewdeck.json` the app offers to replace), from every `"baseUrl": "…"` written in it.
 */
export function baseUrlPortsInText(text: string): string[] {
  // Autosave comes here every half second while someone types: most documents name no base URL.
  if (!text.includes('baseUrl')) return [];
  try {
    return baseUrlPorts(JSON.parse(text));
  } catch {
    const ports = new Set<string>();
    for (const m of text.matchAll(/"baseUrl"\s*:\s*"([^"\\]{1,2000})"/g)) {
      const port = m[1] === undefined ? undefined : baseUrlPort(m[1]);
      if (port) ports.add(port);
    }
    return [...ports];
  }
}

/** Notes the ports of the base URLs in `crewdeck.json` and every document of the workspace as they are on disk. */
export function noteWorkspaceBaseUrls(workspace: string, env: NodeJS.ProcessEnv = process.env): void {
  const ports = new Set<string>();
  for (const file of [join(workspace, WORKSPACE_SETTINGS_FILE), ...workspaceDocumentFiles(workspace)]) for (const port of portsOfFile(file)) ports.add(port);
  new EnteredModelServers(env).noteSupplied(workspace, ports);
}

/** Notes the ports of one document file as it is on disk (before a save or a delete replaces it). */
export function noteDocumentBaseUrls(workspace: string, file: string, env: NodeJS.ProcessEnv = process.env): void {
  const ports = portsOfFile(file);
  if (ports.length > 0) new EnteredModelServers(env).noteSupplied(workspace, ports);
}

function portsOfFile(file: string): string[] {
  try {
    return baseUrlPortsInText(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
}

/**
 * After `settings.save`: records each keyless loopback base URL of the saved profiles and embedder whose
 * port the workspace never named as the user's own for this workspace, so testing and running on it need
 * no further step. Returns the base URLs it recorded. A remote URL, a URL that sends a key, or a port the
 * workspace supplied is left held: trusting it needs a person (the terminal's code, Electron's dialog).
 */
export function approveEnteredBaseUrls(workspace: string, settings: WorkspaceSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const entered = new EnteredModelServers(env);
  const supplied = entered.supplied(workspace);
  const trusted = new TrustStore(env).trusted(workspace);
  for (const digest of entered.approved(workspace)) trusted.add(digest);
  const servers = userModelServers(env);
  const candidates = [
    ...Object.entries(settings.models.profiles).map(([name, p]) => ({ model: p, where: `crewdeck.json models.profiles.${name}.baseUrl`, openai: p.provider === 'openai' })),
    ...(settings.memory?.embedder.provider === 'openai' ? [{ model: settings.memory.embedder, where: 'crewdeck.json memory.embedder.baseUrl', openai: true }] : []),
  ];
  const approved: { port: string; digest: string; baseUrl: string }[] = [];
  for (const { model, where, openai } of candidates) {
    if (!openai || !model.baseUrl || model.apiKeyEnv !== undefined) continue;
    const port = baseUrlPort(model.baseUrl);
    if (!port || supplied.has(port) || !isLoopback(model.baseUrl)) continue;
    const part = modelHostHeldPart(model, where, servers);
    if (!part || trusted.has(part.digest)) continue;
    approved.push({ port, digest: part.digest, baseUrl: model.baseUrl });
  }
  entered.approve(workspace, approved);
  return [...new Set(approved.map((a) => a.baseUrl))];
}

function isLoopback(baseUrl: string): boolean {
  try {
    return localHostKind(new URL(baseUrl).host) === 'loopback';
  } catch {
    return false;
  }
}
