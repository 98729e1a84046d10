import { formatProblems, type Problem } from '../../shared/model/problems';

/** The folder holds no CrewAI project (no agents.yaml and tasks.yaml were found). */
export class CrewAiProjectNotFound extends Error {
  override name = 'CrewAiProjectNotFound';
  constructor(
    readonly dir: string,
    detail: string,
  ) {
    super(`No CrewAI project in ${dir}: ${detail}`);
  }
}

/** A YAML file of the project cannot be read or parsed; `line` and `column` are 1-based when known. */
export class CrewAiYamlInvalid extends Error {
  override name = 'CrewAiYamlInvalid';
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${file}${line !== undefined ? `:${line}${column !== undefined ? `:${column}` : ''}` : ''}: ${reason}`);
  }
}

/** The project was read, but what it describes is not a valid crew (e.g. a task names no agent). */
export class CrewAiImportInvalid extends Error {
  override name = 'CrewAiImportInvalid';
  constructor(
    readonly dir: string,
    readonly problems: Problem[],
  ) {
    super(`The CrewAI project in ${dir} does not make a valid crew:\n${formatProblems(problems)}`);
  }
}

/** The export target exists and is not an empty folder, or cannot be written. */
export class CrewAiExportFailed extends Error {
  override name = 'CrewAiExportFailed';
}

/** crew.py loads a YAML entry (`agents_config['x']`) that the YAML file does not define. */
export class CrewAiConfigKeyMissing extends Error {
  override name = 'CrewAiConfigKeyMissing';
  constructor(
    /** crew.py and the line of the method that loads it. */
    readonly at: string,
    readonly reason: string,
    readonly detail: string,
  ) {
    super(`${at}: ${reason} (${detail})`);
  }
}
