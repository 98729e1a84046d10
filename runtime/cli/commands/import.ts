import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { CrewDocument } from '../../../shared/model/crew';
import { CrewAiConfigKeyMissing, CrewAiImportInvalid, CrewAiProjectNotFound, CrewAiYamlInvalid } from '../../crewai/crewAiErrors';
import { importCrewAiProject, type CrewAiImport } from '../../crewai/importProject';
import { ImportFileExists, writeImportExtras } from '../../crewai/writeImport';
import { formatUnmapped } from '../crewAiSummary';
import { parseOptions } from '../options';
import { colorFor, createStyle, type Style } from '../style';
import { EXIT, UsageError } from '../usage';

/**
 * `crewdeck import <crewai-project-dir> [-o <file-or-dir>] [--force] [--json]`: reads a CrewAI project
 * (never runs its Python) and writes one crew file per crew it holds, and for a Flow project the flow
 * file (`<flow id>.flow.json`, the main document, listed first). `-o` names the crew file (one crew) or
 * a folder (required when there are several documents; default: the current folder). Unmapped
 * settings are listed; they do not fail the import.
 */
export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    output: { type: 'string', short: 'o' },
    force: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const [given] = positionals;
  if (given === undefined || positionals.length !== 1) throw new UsageError('import needs one CrewAI project folder, e.g. crewdeck import ./my_crew -o my_crew.crew.json');
  const json = values.json ?? false;
  const style = createStyle(!json && colorFor(process.stdout));
  const fail: Fail = (name, message, extra = {}) => {
    if (json) process.stdout.write(`${JSON.stringify({ status: 'invalid', error: name, message, ...extra })}\n`);
    else process.stderr.write(`${style.red('✗')} ${message}\n`);
    return EXIT.badInput;
  };

  const result = await readProject(resolve(given), fail);
  if (typeof result === 'number') return result;
  const plan = outputPlan(result, values.output);
  const written = writeProject(result, plan, values.force ?? false, fail);
  if (typeof written === 'number') return written;

  process.stdout.write(json ? jsonReport(result, plan, written) : textReport(given, result, written, style));
  return EXIT.ok;
}

/** Reports a failure (as JSON with --json) and gives the exit code. */
type Fail = (name: string, message: string, extra?: Record<string, unknown>) => number;

/** The project read, or the exit code of a project that cannot be. */
async function readProject(dir: string, fail: Fail): Promise<CrewAiImport | number> {
  try {
    return await importCrewAiProject(dir);
  } catch (error) {
    if (error instanceof CrewAiYamlInvalid) return fail(error.name, error.message, { file: error.file, line: error.line, column: error.column });
    if (error instanceof CrewAiProjectNotFound || error instanceof CrewAiImportInvalid || error instanceof CrewAiConfigKeyMissing) {
      return fail(error.name, error.message);
    }
    throw error;
  }
}

/** Where the documents go: `-o` a crew file (one crew) or a folder, else the current folder. */
interface OutputPlan {
  targetIsDir: boolean;
  /** The folder the documents and the project's extras are written into. */
  folder: string;
  /** One per crew, in order. */
  files: string[];
  flowFile?: string;
  /** Where the project's extras (files brought along, settings) go: beside the crew file, or in the folder. */
  extrasDir: string;
}

function outputPlan({ crews, flow }: CrewAiImport, output: string | undefined): OutputPlan {
  const target = output !== undefined ? resolve(output) : undefined;
  const targetIsDir = target !== undefined && (existsSync(target) ? statSync(target).isDirectory() : !/\.json$/.test(target));
  if (target !== undefined && !targetIsDir && flow) {
    throw new UsageError(`the project is a CrewAI Flow: it holds the flow ${flow.id} and ${crews.length} crew${crews.length === 1 ? '' : 's'} (${crews.map((c) => c.id).join(', ')}); -o must name a folder to write them into, got ${output}`);
  }
  if (target !== undefined && !targetIsDir && crews.length > 1) {
    throw new UsageError(`the project holds ${crews.length} crews (${crews.map((c) => c.id).join(', ')}); -o must name a folder to write them into, got ${output}`);
  }
  if (target !== undefined && !targetIsDir && !/\.crew\.json$/.test(target)) throw new UsageError(`the output file must end in .crew.json, got ${output}`);
  const folder = targetIsDir && target !== undefined ? target : process.cwd();
  const toFile = target !== undefined && !targetIsDir;
  const files = crews.map((crew) => (toFile ? target : join(folder, `${crew.id}.crew.json`)));
  // A Flow project: the flow is the main document, beside its crews (its crew bodies name them by file name).
  const flowFile = flow ? join(folder, `${flow.id}.flow.json`) : undefined;
  return { targetIsDir, folder, files, flowFile, extrasDir: toFile ? dirname(target) : folder };
}

type WrittenDocument = { path: string; kind: 'flow' | 'crew' };

/** Writes the flow, the crews and the project's extras (their notes join `unmapped`); or the exit code of what was in the way. */
function writeProject(result: CrewAiImport, plan: OutputPlan, force: boolean, fail: Fail): WrittenDocument[] | number {
  const { crews, unmapped, flow } = result;
  const { folder, files, flowFile } = plan;
  const taken = [...(flowFile ? [flowFile] : []), ...files].find((f) => existsSync(f));
  if (taken && !force) return fail('OutputExists', `${shown(taken)} already exists; use --force to replace it or -o to choose another file or folder`);
  if (plan.targetIsDir) mkdirSync(folder, { recursive: true });
  let extraNotes;
  try {
    extraNotes = writeImportExtras(plan.extrasDir, result, force);
  } catch (error) {
    if (error instanceof ImportFileExists) return fail('OutputExists', `${error.path} already exists with different content; use --force to replace it or -o to choose another folder`);
    throw error;
  }
  unmapped.push(...extraNotes);
  if (flow && flowFile) writeFileSync(flowFile, `${JSON.stringify(flow, null, 2)}\n`);
  crews.forEach((crew, i) => writeFileSync(files[i]!, `${JSON.stringify(crew, null, 2)}\n`));
  return [...(flowFile ? [{ path: flowFile, kind: 'flow' as const }] : []), ...files.map((path) => ({ path, kind: 'crew' as const }))];
}

function shown(file: string): string {
  return relative(process.cwd(), file) || file;
}

function jsonReport(result: CrewAiImport, { files }: OutputPlan, documents: WrittenDocument[]): string {
  const first = result.crews[0];
  return `${JSON.stringify({
    documents,
    unmapped: result.unmapped,
    warnings: result.warnings,
    sourceFiles: result.sourceFiles,
    profiles: result.profiles,
    files: result.files.map((f) => f.path),
    mcpServers: result.mcpServers,
    // The first (main) crew, as before several crews were imported.
    file: files[0],
    ...(first ? { crew: summary(first) } : {}),
  })}\n`;
}

function textReport(given: string, result: CrewAiImport, documents: WrittenDocument[], style: Style): string {
  const { crews, unmapped, sourceFiles, warnings, flow } = result;
  const out = [
    `${style.green('✓')} Imported the CrewAI project ${given} → ${documents.map((d) => style.bold(shown(d.path))).join(', ')}`,
    ...(flow ? [`  flow "${flow.name}": ${flow.methods.length} method${flow.methods.length === 1 ? '' : 's'} (${flow.methods.map((m) => m.name).join(', ')})`] : []),
    ...(Object.keys(result.profiles).length > 0 ? [`  model profiles (crewdeck.json): ${Object.keys(result.profiles).join(', ')}`] : []),
    ...(result.files.length > 0 ? [`  files brought along: ${result.files.map((f) => f.path).join(', ')}`] : []),
    ...crews.flatMap((doc) => [
      `  crew "${doc.name}" (${doc.process}${doc.manager ? ', with a manager' : ''}): ${doc.agents.length} agent${doc.agents.length === 1 ? '' : 's'} (${doc.agents.map((a) => a.id).join(', ')}), ${doc.tasks.length} task${doc.tasks.length === 1 ? '' : 's'} (${doc.tasks.map((t) => t.id).join(', ')})`,
      ...(doc.inputs?.length ? [`    inputs: ${doc.inputs.map((i) => (i.default !== undefined ? `${i.name} (default "${i.default}")` : i.name)).join(', ')}`] : []),
      ...(warnings.find((w) => w.crewId === doc.id)?.warnings ?? []).map((w) => `    ${style.yellow('!')} ${w.path}: ${w.message}`),
    ]),
    `  read: ${sourceFiles.join(', ')}`,
    '',
  ];
  return `${out.join('\n')}\n${formatUnmapped('Not imported', unmapped, style)}`;
}

function summary(doc: CrewDocument) {
  return { id: doc.id, name: doc.name, process: doc.process, agents: doc.agents.length, tasks: doc.tasks.length, inputs: (doc.inputs ?? []).map((i) => i.name) };
}
