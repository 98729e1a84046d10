import { dirname, resolve } from 'node:path';
import { loadDocumentFile } from '../../document/loadDocument';
import { parseInputs, parseOptions } from '../options';
import { runInTerminal } from '../session';
import { UsageError } from '../usage';

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    input: { type: 'string', multiple: true, short: 'i' },
    inputs: { type: 'string' },
    model: { type: 'string' },
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean', default: false },
  });
  if (positionals.length !== 1) throw new UsageError('run needs exactly one crew or flow file');
  const file = resolve(positionals[0]);
  const inputs = parseInputs(values.input, values.inputs);
  return runInTerminal(
    { workspace: values.workspace ?? dirname(file), json: values.json ?? false, forceProfile: values.model, createStore: true },
    () => {
      const loaded = loadDocumentFile(file);
      return loaded.kind === 'flow'
        ? (runtime, run) => runtime.runFlow(loaded.doc, { ...run, inputs, documentPath: file })
        : (runtime, run) => runtime.runCrew(loaded.doc, { ...run, inputs, documentPath: file });
    },
  );
}
