import { dirname, resolve } from 'node:path';
import { DocumentOutsideWorkspace, loadWorkspaceDocument } from '../../document/workspaceDocument';
import { DocumentInvalid } from '../../errors';
import { CrewAiExportFailed } from '../../crewai/crewAiErrors';
import { exportCrewAiCrews } from '../../crewai/exportProject';
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
  if (positionals.length < 2) throw new UsageError('export needs crew files and a target folder: crewdeck export <file.crew.json>... --to crewai <dir>');
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const dir = positionals[positionals.length - 1];
  const crewFiles = positionals.slice(0, -1);

  try {
    // The crew file's folder is its workspace: a symbolic link there to a crew elsewhere is refused.
    const docs: CrewDocument[] = crewFiles.map((file) => {
      const loaded = loadWorkspaceDocument(dirname(resolve(file)), resolve(file));
      if (loaded.kind !== 'crew') throw new DocumentInvalid(loaded.shown, [{ path: 'kind', message: 'export works on crews, not flows' }]);
      return loaded.doc;
    });
    const doc = docs[0];
    const result = exportCrewAiCrews(docs, resolve(dir), { overwrite: values.force });
    if (json) {
      process.stdout.write(`${JSON.stringify({ dir: resolve(dir), packageName: result.packageName, files: result.files, summary: result.summary })}\n`);
      return EXIT.ok;
    }
    process.stdout.write(
      `${style.green('✓')} Exported ${docs.length === 1 ? `"${doc.name}"` : `${docs.length} crews (${docs.map((d) => d.id).join(', ')})`} as a CrewAI project in ${style.bold(dir)}\n` +
        result.files.map((f) => `  ${f}\n`).join('') +
        `  run it there with: crewai install && crewai run\n\n` +
        formatUnmapped('Not exported (CrewAI has no equivalent)', result.summary, style),
    );
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DocumentInvalid || error instanceof CrewAiExportFailed || error instanceof DocumentOutsideWorkspace) {
      if (json) process.stdout.write(`${JSON.stringify({ error: error.name, message: error.message })}\n`);
      else process.stderr.write(`${style.red('✗')} ${error.message}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}
