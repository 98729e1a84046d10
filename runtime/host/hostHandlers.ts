import { basename } from 'node:path';
import { createRequire } from 'node:module';
import type { HostChannel, HostRequestParsed, HostResponse } from '../../shared/host-api';
import type { RuntimeEvent } from '../../shared/events';
import type { RunRecord, RunSummary } from '../store/types';
import { diffRuns } from '../runs/runDiff';
import { HostBadInput, HostConflict, HostNotFound } from './hostErrors';
import type { HostParts } from './hostParts';
import { testConnection } from './testConnection';
import { probeLocalModels } from './probeLocalModels';
import { validateDocument } from './workspaceDocuments';
import { importCrewAiIntoWorkspace } from './hostCrewAiImport';
import type { TrustStatus as RuntimeTrustStatus } from '../trust/workspaceTrust';
import { trustFingerprint } from '../trust/trustConfirmation';
import { loadWorkspaceSettings } from '../document/loadDocument';
import { resolveWorkspaceDocument } from '../document/workspaceDocument';
import { approveEnteredBaseUrls, noteDocumentBaseUrls, noteWorkspaceBaseUrls } from '../trust/enteredBaseUrls';

export type Handlers = { [C in HostChannel]: (request: HostRequestParsed<C>) => HostResponse<C> | Promise<HostResponse<C>> };

/** Every channel of the host API, answered by the parts of one workspace's host. */
export function hostHandlers(parts: HostParts): Handlers {
  return {
    ...workspaceHandlers(parts),
    ...documentHandlers(parts),
    ...runHandlers(parts),
    ...humanHandlers(parts),
    ...settingsHandlers(parts),
    ...memoryAndToolHandlers(parts),
    ...trainingHandlers(parts),
  };
}

function workspaceHandlers({ workspace, transport, settingsFile, trust, confirmTrust, tools }: HostParts) {
  return {
    'workspace.info': () => ({ path: workspace, name: basename(workspace), transport, version: packageVersion() }),
    'trust.status': () => trustStatus(trust.status(settingsFile.read().settings)),
    'trust.grant': (request) => {
      // The renderer is untrusted: a grant needs a person's confirmation from outside it (trustConfirmation.ts).
      const settings = loadWorkspaceSettings(workspace);
      const current = trust.status(settings);
      const confirmation = confirmTrust.confirm(current, request);
      if (!confirmation.confirmed) return { ...trustStatus(current), confirmation: { codeRequired: confirmation.codeRequired, message: confirmation.message } };
      const status = trustStatus(trust.grant(settings));
      tools.forget(); // the last listing was made without trust (its servers did not start)
      return status;
    },
  } satisfies Partial<Handlers>;
}

function documentHandlers({ workspace, documents, push }: HostParts) {
  /** Before a document is replaced or removed: the base URLs it held were the workspace's. */
  const noteDocument = (path: string) => noteDocumentBaseUrls(workspace, resolveWorkspaceDocument(workspace, path).file);
  const changed = <T>(value: T): T => {
    push({ kind: 'documents.changed' });
    return value;
  };
  const sidebarState = new Map<string, string>();
  return {
    'documents.list': () => ({ documents: documents.list() }),
    'documents.read': ({ path }) => documents.read(path),
    'documents.create': ({ name, kind }) => changed(documents.create(name, kind)),
    'documents.save': ({ path, document }) => {
      noteDocument(path);
      const saved = { path, ...documents.save(path, document) };
      // Autosave runs every half second while someone types: tell the sidebars only when what they
      // show (the name, the problem count) changed.
      const shown = `${String(document.name)}\u0000${saved.problems.length}`;
      if (sidebarState.get(path) === shown) return saved;
      sidebarState.set(path, shown);
      return changed(saved);
    },
    'documents.rename': ({ path, newPath }) => {
      documents.rename(path, newPath);
      return changed({ path: newPath });
    },
    'documents.delete': ({ path }) => {
      noteDocument(path);
      documents.delete(path);
      return changed({});
    },
    'documents.validate': ({ document }) => ({ problems: validateDocument(document) }),
    'documents.importCrewai': async ({ dir }) => changed(await importCrewAiIntoWorkspace(workspace, documents, dir)),
  } satisfies Partial<Handlers>;
}

function runHandlers({ store, runs, batches, team }: HostParts) {
  const requireRun = (runId: string): RunRecord => {
    const run = store.getRun(runId);
    if (!run) throw new HostNotFound(`no run with id "${runId}" in this workspace`);
    return run;
  };
  // Runs are never deleted: once found, a run's pages of events need no look at its row (and its
  // document, 1.8 MB for an 8,400-task crew, read and parsed per page before: 3.1x select + parse).
  const knownRuns = new Set<string>();
  const requireRunExists = (runId: string): void => {
    if (knownRuns.has(runId)) return;
    requireRun(runId);
    knownRuns.add(runId);
  };
  /** A run of the team server that this workspace does not hold itself. */
  const teamOnly = (runId: string) => team.isTeamRun(runId) && !store.getRun(runId);
  return {
    'runs.start': async ({ path, inputs, model }) => ({ runId: await runs.start(path, inputs, model) }),
    'chat.send': async ({ path, ...request }) => ({ runId: await runs.chat(path, request) }),
    'runs.startBatch': (request) => batches.start(request),
    'runs.batch': ({ batchId }) => batches.get(batchId),
    'runs.cancelBatch': ({ batchId }) => ({ cancelled: batches.cancel(batchId) }),
    'runs.cancel': ({ runId }) => ({ cancelled: runs.cancel(runId) }),
    // A document's runs are selected in SQL (runs_document index): all of them, whatever else ran since.
    'runs.list': async ({ limit, offset, documentId }) => {
      const local = store.listRuns({ limit, offset, documentId }).map(summary);
      // The team server's runs are listed with the local ones (marked `team`), newest first; not per document.
      if (documentId !== undefined || offset > 0) return { runs: local };
      const all = [...local, ...(await team.list(limit))].sort((a, b) => b.startedAt - a.startedAt);
      return { runs: all.slice(0, limit) };
    },
    'runs.startTeam': ({ path, inputs }) => team.start(path, inputs),
    'runs.share': ({ runId }) => team.share(runId),
    'team.status': () => team.status(),
    'team.publish': ({ path }) => team.publish(path),
    'runs.get': ({ runId }) => {
      if (teamOnly(runId)) return team.get(runId);
      const run = requireRun(runId);
      return {
        run: { ...summary(run), document: run.document, inputs: run.inputs, output: run.output },
        taskOutputs: store.taskOutputs(runId).map(({ runId: _run, ...output }) => output),
      };
    },
    'runs.events': ({ runId, afterSeq, limit }) => {
      if (teamOnly(runId)) return team.events(runId, afterSeq, limit);
      requireRunExists(runId);
      // One more than asked says whether there are more.
      const page: RuntimeEvent[] = store.events(runId, afterSeq, limit + 1);
      const events = page.slice(0, limit);
      return { events, lastSeq: events.at(-1)?.seq ?? afterSeq, more: page.length > limit };
    },
    'runs.rerunOffline': async ({ runId }) => ({ runId: await runs.rerunOffline(requireRun(runId).id) }),
    'runs.diff': ({ runA, runB }) => ({ diff: diffRuns(store, requireRun(runA).id, requireRun(runB).id) }),
    'runs.replay': async (req) => ({ runId: 'fromTaskId' in req ? await runs.replay(req.runId, req.fromTaskId, req.edits) : await runs.replayFlow(req.runId, req.fromMethodId, req.state) }),
    'runs.resume': async ({ runId, feedback, decision, budget }) => {
      // A run waiting on the team server is answered there (its pending request, through the API).
      if (teamOnly(runId)) return team.resume(runId, { feedback, decision, budget });
      return { runId: await runs.resume(runId, feedback, budget, decision) };
    },
  } satisfies Partial<Handlers>;
}

function humanHandlers({ human }: HostParts) {
  return {
    'human.pending': () => ({ requests: human.pending() }),
    'human.answer': (request) => {
      const answer = 'feedback' in request ? { feedback: request.feedback } : { decision: request.decision };
      const outcome = human.answer(request.runId, request.requestId, answer);
      if (outcome === 'not_waiting') throw new HostConflict(`request ${request.requestId} is not waiting for an answer (answered already, or its run ended)`);
      if (outcome === 'wrong_kind') {
        throw new HostBadInput(`request ${request.requestId} needs ${'feedback' in request ? 'a decision (approve, deny or always)' : 'feedback text'}`);
      }
      return {};
    },
  } satisfies Partial<Handlers>;
}

function settingsHandlers({ workspace, env, settingsFile }: HostParts) {
  return {
    'settings.get': () => {
      const { settings, problems } = settingsFile.read();
      return { settings, problems, keys: settingsFile.keyNames(settings).map((name) => ({ name, present: Boolean(env[name]) })) };
    },
    'settings.save': ({ settings }) => {
      // A loopback base URL typed here is the user's own; one the workspace already named is not.
      noteWorkspaceBaseUrls(workspace);
      const problems = settingsFile.save(settings);
      if (problems.length > 0) return { problems };
      const entered = approveEnteredBaseUrls(workspace, settingsFile.read().settings);
      return entered.length > 0 ? { problems, entered } : { problems };
    },
    'settings.testConnection': ({ model }) => {
      const { settings } = settingsFile.read();
      return testConnection(model, { settings, env, workspace, keyNames: settingsFile.keyNames(settings) });
    },

    'models.probeLocal': async () => ({ servers: await probeLocalModels() }),

    'secrets.list': () => ({
      writable: false,
      names: settingsFile.keyNames(settingsFile.read().settings).map((name) => ({ name, present: Boolean(env[name]), stored: false })),
    }),
    'secrets.set': ({ name }) => {
      throw new HostBadInput(`browser mode reads API keys from environment variables: set ${name} before starting crewdeck serve`);
    },
    'secrets.delete': ({ name }) => {
      throw new HostBadInput(`browser mode reads API keys from environment variables: unset ${name} before starting crewdeck serve`);
    },
  } satisfies Partial<Handlers>;
}

function memoryAndToolHandlers({ memory, tools, settingsFile }: HostParts) {
  return {
    'memory.list': (request) => memory.list(request),
    'memory.search': (request) => memory.search(request),
    'memory.add': (request) => memory.add(request),
    'memory.update': (request) => memory.update(request),
    'memory.forget': (request) => memory.forget(request),
    'memory.reset': (request) => memory.reset(request),
    'memory.scopes': () => memory.scopes(),

    'tools.list': () => tools.list(settingsFile.read().settings),
  } satisfies Partial<Handlers>;
}

function trainingHandlers({ training }: HostParts) {
  return {
    'training.start': (request) => training.startTraining(request),
    'training.cancel': ({ trainingId }) => ({ cancelled: training.cancel(trainingId) }),
    'training.sessions': (request) => training.sessions(request),
    'training.versions': (request) => training.versions(request),
    'training.records': (request) => training.records(request),
    'training.updateSuggestion': (request) => training.updateSuggestion(request),
    'training.setSuggestions': (request) => training.setSuggestions(request),
    'training.activate': (request) => training.activate(request),
    'training.disable': (request) => training.disable(request),
    'training.rollback': (request) => training.rollback(request),
    'training.diff': (request) => training.diff(request),
    'tests.start': (request) => training.startTest(request),
    'tests.cancel': ({ testId }) => ({ cancelled: training.cancel(testId) }),
    'tests.list': (request) => training.listTests(request),
    'tests.get': (request) => training.getTest(request),
  } satisfies Partial<Handlers>;
}

/** The trust status as the contract shows it (the digests stay in the runtime). */
function trustStatus(status: RuntimeTrustStatus): HostResponse<'trust.status'> {
  const untrusted = new Set(status.untrusted.map((p) => p.digest));
  return {
    needed: status.needed,
    trusted: status.trusted,
    parts: status.parts.map((p) => ({ kind: p.kind, where: p.where, summary: p.summary, trusted: !untrusted.has(p.digest) })),
    fingerprint: trustFingerprint(status),
  };
}

function summary(run: RunSummary): HostResponse<'runs.list'>['runs'][number] {
  return {
    id: run.id,
    kind: run.kind,
    documentId: run.documentId,
    name: run.name,
    status: run.status,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    durationMs: run.durationMs,
    tokenUsage: run.tokenUsage,
    replayOf: run.replayOf,
    error: run.error,
    documentPath: run.documentPath,
    offlineFrom: run.offlineFrom,
  };
}

let version: string | undefined;
function packageVersion(): string {
  if (version === undefined) {
    try {
      const pkg = createRequire(import.meta.url)('../../package.json') as { version?: unknown };
      version = String(pkg.version);
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}
