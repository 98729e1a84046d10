import { existsSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { CrewAiImportInvalid, CrewAiProjectNotFound, CrewAiYamlInvalid } from '../../crewai/crewAiErrors';
import { importCrewAiProject } from '../../crewai/importProject';
import { formatUnmapped } from '../crewAiSummary';
import { parseOptions } from '../options';
import { colorFor, createStyle } from '../style';
import { EXIT, UsageError } from '../usage';

/**
 * `crewdeck import <crewai-project-dir> [-o file.crew.json] [--force] [--json]`: reads a CrewAI project
 * (never runs its Python) and writes a crew file. Unmapped settings are listed; they do not fail the import.
 */
export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    output: { type: 'string', short: 'o' },
    force: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('import needs one CrewAI project folder, e.g. crewdeck import ./my_crew -o my_crew.crew.json');
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const dir = resolve(positionals[0]);

  let result;
  try {
    result = importCrewAiProject(dir);
  } catch (error) {
    if (error instanceof CrewAiProjectNotFound || error instanceof CrewAiYamlInvalid || error instanceof CrewAiImportInvalid) {
      if (json) process.stdout.write(`${JSON.stringify({ error: error.name, message: error.message, ...(error instanceof CrewAiYamlInvalid ? { file: error.file, line: error.line, column: error.column } : {}) })}\n`);
      else process.stderr.write(`${style.red('✗')} ${error.message}\n`);
      return EXIT.badInput;
    }
    throw error;
  }

  const { doc, unmapped, sourceFiles } = result;
  const file = resolve(values.output ?? `${doc.id}.crew.json`);
  if (!/\.crew\.json$/.test(file)) throw new UsageError(`the output file must end in .crew.json, got ${values.output}`);
  if (existsSync(file) && !values.force) {
    const message = `${relative(process.cwd(), file) || file} already exists; use --force to replace it or -o to choose another file`;
    if (json) process.stdout.write(`${JSON.stringify({ error: 'OutputExists', message })}\n`);
    else process.stderr.write(`${style.red('✗')} ${message}\n`);
    return EXIT.badInput;
  }
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);

  if (json) {
    process.stdout.write(`${JSON.stringify({ file, crew: { id: doc.id, name: doc.name, process: doc.process, agents: doc.agents.length, tasks: doc.tasks.length, inputs: (doc.inputs ?? []).map((i) => i.name) }, sourceFiles, unmapped })}\n`);
    return EXIT.ok;
  }
  const shown = relative(process.cwd(), file) || file;
  const out = [
    `${style.green('✓')} Imported the CrewAI project ${positionals[0]} → ${style.bold(shown)}`,
    `  crew "${doc.name}" (${doc.process}${doc.manager ? ', with a manager' : ''}): ${doc.agents.length} agent${doc.agents.length === 1 ? '' : 's'} (${doc.agents.map((a) => a.id).join(', ')}), ${doc.tasks.length} task${doc.tasks.length === 1 ? '' : 's'} (${doc.tasks.map((t) => t.id).join(', ')})`,
    ...(doc.inputs?.length ? [`  inputs: ${doc.inputs.map((i) => (i.default !== undefined ? `${i.name} (default "${i.default}")` : i.name)).join(', ')}`] : []),
    `  read: ${sourceFiles.join(', ')}`,
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n${formatUnmapped('Not imported', unmapped, style)}`);
  return EXIT.ok;
}
