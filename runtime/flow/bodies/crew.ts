import { loadCrewFile } from '../../document/loadDocument';
import { crewContext, executeCrew, prepareCrew } from '../../crew/executeCrew';
import { resolveInputs } from '../../crew/interpolate';
import { resolveWorkspaceDocument } from '../../document/workspaceDocument';
import { DocumentInvalid } from '../../errors';
import { renderTemplate } from '../template';
import type { BodyRunner } from './types';

function loadCrewFileIn(workspace: string, path: string) {
  const { file, shown } = resolveWorkspaceDocument(workspace, path);
  try {
    return loadCrewFile(file);
  } catch (error) {
    if (error instanceof DocumentInvalid) throw new DocumentInvalid(shown, error.problems);
    throw error;
  }
}

/** Runs a crew file as one step: its tasks' events nest under the method; inputs come from templates. */
export const runCrewBody: BodyRunner<'crew'> = async (body, scope) => {
  // The schema keeps `file` relative and inside; the one document-path check also refuses a symbolic
  // link that leads outside, and problems name the workspace-relative path.
  const doc = loadCrewFileIn(scope.deps.workspace, body.file);
  // The run was checked when it opened, but an earlier method may have rewritten the file since.
  scope.deps.requireReach?.(doc, body.file);
  const given: Record<string, string> = {};
  for (const [name, template] of Object.entries(body.inputs ?? {})) given[name] = renderTemplate(template, scope, `${scope.method.name}.inputs.${name}`);
  const models = scope.deps.modelsFor(body.file);
  const deps = { ...scope.deps, models };
  const crew = prepareCrew(doc, resolveInputs(doc, given), deps, body.file);
  // A failed task stops the crew's other tasks, not the flow's other branches.
  const controller = new AbortController();
  const stop = () => controller.abort(scope.ctx.signal.reason);
  scope.ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const ctx = crewContext(crew, deps, { runId: scope.ctx.runId, signal: controller.signal, meter: scope.ctx.meter, root: scope.span, newId: scope.ctx.newId, gate: scope.ctx.gate, budget: scope.ctx.budget });
    const result = await executeCrew(ctx, scope.span, crew, { models, abort: (reason) => controller.abort(reason) });
    return { kind: 'done', output: result.raw, json: result.json };
  } finally {
    scope.ctx.signal.removeEventListener('abort', stop);
  }
};
