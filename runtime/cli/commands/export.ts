import { dirname, resolve } from 'node:path';
import { DocumentOutsideWorkspace, loadWorkspaceDocument } from '../../document/workspaceDocument';
import { loadWorkspaceSettings } from '../../document/loadDocument';
import { DocumentInvalid } from '../../errors';
import { CrewAiExportFailed } from '../../crewai/crewAiErrors';
import { exportCrewAiCrews } from '../../crewai/exportProject';
import { exportCrewAiFlow } from '../../crewai/exportFlow';
import type { FlowDocument } from '../../../shared/model/flow';
import type { CrewDocument } from '../../../shared/model/crew';
import { formatUnmapped } from '../crewAiSummary';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { EXIT, UsageError } from '../usage';

const FORMATS = ['crewai'];

/**
 * `crewdeck export <file.crew.json>... --to crewai <dir> [--force] [--json]`: writes a CrewAI project;
 * several crew files become one project with a crew.py per crew (crews/<crew>/) and a main.py running them in turn.
 */
export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    to: { type: 'string' },
    force: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  if (values.to === undefined) throw new UsageError('export needs --to crewai, e.g. crewdeck export my.crew.json --to crewai ./my_crew');
  if (!FORMATS.includes(values.to)) throw new UsageError(`unknown export format "${values.to}"; formats: ${FORMATS.join(', ')}`);
  const dir = positionals.at(-1);
  const crewFiles = positionals.slice(0, -1);
  const [firstFile] = crewFiles;
  if (dir === undefined || firstFile === undefined) throw new UsageError('export needs crew files and a target folder: crewdeck export <file.crew.json>... --to crewai <dir>');
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));

  try {
    // The crew file's folder is its workspace: a symbolic link there to a crew elsewhere is refused.
    const first = loadWorkspaceDocument(dirname(resolve(firstFile)), resolve(firstFile));
    if (first.kind === 'flow') {
      if (crewFiles.length > 1) throw new UsageError('export takes one flow file (its crews come with it), or crew files');
      return exportFlow(first.doc, dirname(resolve(firstFile)), resolve(dir), values.force ?? false, json, style);
    }
    const docs: CrewDocument[] = crewFiles.map((file) => {
      const loaded = loadWorkspaceDocument(dirname(resolve(file)), resolve(file));
      if (loaded.kind !== 'crew') throw new DocumentInvalid(loaded.shown, [{ path: 'kind', message: 'export a flow on its own (its crews come with it), not together with crew files' }]);
      return loaded.doc;
    });
    const [doc] = docs;
    const workspace = dirname(resolve(firstFile));
    const result = exportCrewAiCrews(docs, resolve(dir), { overwrite: values.force, workspace, profiles: loadWorkspaceSettings(workspace)?.models.profiles });
    if (json) {
      process.stdout.write(`${JSON.stringify({ dir: resolve(dir), packageName: result.packageName, files: result.files, summary: result.summary })}\n`);
      return EXIT.ok;
    }
    process.stdout.write(
      `${style.green('✓')} Exported ${doc !== undefined && docs.length === 1 ? `"${doc.name}"` : `${docs.length} crews (${docs.map((d) => d.id).join(', ')})`} as a CrewAI project in ${style.bold(dir)}\n` +
        result.files.map((f) => `  ${f}\n`).join('') +
        `  run it there with: crewai install && crewai run\n\n` +
        formatUnmapped('Not exported (CrewAI has no equivalent)', result.summary, style),
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DocumentInvalid || error instanceof CrewAiExportFailed || error instanceof DocumentOutsideWorkspace) {
      if (json) process.stdout.write(`${JSON.stringify({ status: 'invalid', error: error.name, message: error.message })}\n`);
      else process.stderr.write(`${style.red('✗')} ${error.message}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}

/** A flow and the crews its methods run (crew bodies, also inside for_each, and scripts' crews), as one CrewAI project. */
function exportFlow(flow: FlowDocument, workspace: string, dir: string, force: boolean, json: boolean, style: ReturnType<typeof createStyle>): number {
  const crews = new Map<string, CrewDocument>();
  for (const m of flow.methods) {
    const body = m.body.type === 'for_each' ? m.body.body : m.body;
    // A script's `crews`: the crews its code (or the CrewAI Python a stub stands for) kicks off.
    const files = body.type === 'crew' ? [body.file] : body.type === 'script' ? (body.crews ?? []) : [];
    for (const file of files) {
      if (crews.has(file)) continue;
      const loaded = loadWorkspaceDocument(workspace, resolve(workspace, file));
      if (loaded.kind !== 'crew') throw new DocumentInvalid(loaded.shown, [{ path: 'kind', message: `method "${m.name}" runs it as a crew, but it is a flow` }]);
      crews.set(file, loaded.doc);
    }
  }
  const result = exportCrewAiFlow(flow, crews, dir, { overwrite: force, workspace, profiles: loadWorkspaceSettings(workspace)?.models.profiles });
  if (json) {
    process.stdout.write(`${JSON.stringify({ dir, packageName: result.packageName, files: result.files, summary: result.summary })}\n`);
    return EXIT.ok;
  }
  process.stdout.write(
    `${style.green('✓')} Exported the flow "${flow.name}" and ${crews.size} crew${crews.size === 1 ? '' : 's'} as a CrewAI project in ${style.bold(dir)}\n` +
      result.files.map((f) => `  ${f}\n`).join('') +
      `  run it there with: crewai install && crewai flow kickoff\n\n` +
      formatUnmapped('Not exported (CrewAI has no equivalent)', result.summary, style),
  );
  return EXIT.ok;
}
