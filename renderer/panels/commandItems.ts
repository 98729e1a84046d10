import type { DocumentEntry, HostRunSummary } from '../../shared/host-api';
import { agentsOf, entry, stringField, tasksOf, type CrewDraft } from '../commands/crewDraft';
import { methodKeys, methodsOf, type FlowDraft } from '../commands/flow/flowDraft';
import { isFlowDocument } from '../model/documentKind';
import { agentNodeId, methodNodeId, taskNodeId } from '../model/nodeIds';

/** One thing the command palette (Ctrl+K) can find. */
export interface CommandItem {
  id: string;
  kind: 'node' | 'document' | 'run' | 'command';
  label: string;
  detail?: string;
  run(): void;
}

export interface CommandSources {
  doc?: unknown;
  documents: DocumentEntry[];
  runs: HostRunSummary[];
  commands: { label: string; detail?: string; run(): void }[];
  selectNode(nodeId: string): void;
  openDocument(path: string): void;
  openRun(run: HostRunSummary): void;
}

/** Everything the palette offers, nodes of the open document first. */
export function commandItems(sources: CommandSources): CommandItem[] {
  const items: CommandItem[] = [];
  const doc = sources.doc;
  if (doc && isFlowDocument(doc)) {
    const flow = doc as FlowDraft;
    const methods = methodsOf(flow);
    methodKeys(flow).forEach((key, i) => {
      const nodeId = methodNodeId(key);
      const name = stringField(entry(methods[i]).name) ?? key;
      items.push({ id: `node:${nodeId}`, kind: 'node', label: name, detail: 'method', run: () => sources.selectNode(nodeId) });
    });
  } else if (doc) {
    const crew = doc as CrewDraft;
    for (const agent of agentsOf(crew)) {
      const id = stringField(entry(agent).id);
      if (!id) continue;
      items.push({ id: `node:agent:${id}`, kind: 'node', label: stringField(entry(agent).role) ?? id, detail: 'agent', run: () => sources.selectNode(agentNodeId(id)) });
    }
    tasksOf(crew).forEach((task, i) => {
      const id = stringField(entry(task).id);
      if (!id) return;
      items.push({ id: `node:task:${id}`, kind: 'node', label: stringField(entry(task).name) ?? id, detail: `task ${i + 1}`, run: () => sources.selectNode(taskNodeId(id)) });
    });
  }
  for (const d of sources.documents) items.push({ id: `doc:${d.path}`, kind: 'document', label: d.name, detail: d.path, run: () => sources.openDocument(d.path) });
  for (const r of sources.runs.slice(0, 50)) items.push({ id: `run:${r.id}`, kind: 'run', label: `${r.name} · ${r.status}`, detail: r.id, run: () => sources.openRun(r) });
  sources.commands.forEach((c, i) => items.push({ id: `cmd:${i}`, kind: 'command', label: c.label, detail: c.detail, run: c.run }));
  return items;
}

/** Items whose label or detail holds every word of the query (case-insensitive), label matches first. */
export function filterItems(items: CommandItem[], query: string): CommandItem[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const [firstWord] = words;
  if (firstWord === undefined) return items;
  const scored: { item: CommandItem; score: number }[] = [];
  for (const item of items) {
    const label = item.label.toLowerCase();
    const text = `${label} ${(item.detail ?? '').toLowerCase()} ${item.kind}`;
    if (!words.every((w) => text.includes(w))) continue;
    const score = label.startsWith(firstWord) ? 0 : words.every((w) => label.includes(w)) ? 1 : 2;
    scored.push({ item, score });
  }
  return scored.sort((a, b) => a.score - b.score).map((s) => s.item);
}
