import { redactStandardStreams } from './redactedOutput';
import { registerEnvSecrets } from '../secretEnv';
import { HELP, UsageError, EXIT } from './usage';

type Command = (args: string[]) => Promise<number>;

/** Commands load on demand, so `crewdeck --help` starts without the runtime's dependencies. */
const commands: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./commands/run')).runCommand,
  replay: async () => (await import('./commands/replay')).replayCommand,
  resume: async () => (await import('./commands/resume')).resumeCommand,
  validate: async () => (await import('./commands/validate')).validateCommand,
  runs: async () => (await import('./commands/runs')).runsCommand,
  batches: async () => (await import('./commands/batches')).batchesCommand,
  serve: async () => (await import('./commands/serve')).serveCommand,
  memory: async () => (await import('./commands/memory')).memoryCommand,
  knowledge: async () => (await import('./commands/knowledge')).knowledgeCommand,
  train: async () => (await import('./commands/train')).trainCommand,
  test: async () => (await import('./commands/test')).testCommand,
  chat: async () => (await import('./commands/chat')).chatCommand,
  suggestions: async () => (await import('./commands/suggestions')).suggestionsCommand,
  import: async () => (await import('./commands/import')).importCommand,
  export: async () => (await import('./commands/export')).exportCommand,
  trust: async () => (await import('./commands/trust')).trustCommand,
  server: async () => (await import('./commands/server')).serverCommand,
  worker: async () => (await import('./commands/worker')).workerCommand,
  deploy: async () => (await import('./commands/deploy')).deployCommand,
};

export async function main(argv: string[]): Promise<number> {
  redactStandardStreams();
  registerEnvSecrets();
  // `crewdeck runs events … | head` closes the pipe early: stop quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(HELP);
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version?: unknown };
    process.stdout.write(`${String(pkg.version)}\n`);
    return EXIT.ok;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const load = commands[name];
  if (!load) {
    if (rest.includes('--json')) process.stdout.write(`${JSON.stringify({ status: 'invalid', error: `unknown command "${name}"` })}\n`);
    process.stderr.write(`crewdeck: unknown command "${name}"\n\n${HELP}`);
    return EXIT.badInput;
  }
  try {
    return await (await load())(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      // With --json, a refusal is an answer on stdout too, as `run` gives one.
      if (rest.includes('--json')) process.stdout.write(`${JSON.stringify({ status: 'invalid', error: error.message })}\n`);
      process.stderr.write(`crewdeck ${name}: ${error.message}\nRun \`crewdeck --help\` for usage.\n`);
      return EXIT.badInput;
    }
    return reportUncaught(name, error, rest.includes('--json'));
  }
}

/** The names of JavaScript's own errors: anything else thrown is one of Crewdeck's (or a library's) typed errors. */
const BUILTIN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);

/**
 * What a command did not handle itself. A typed error (an invalid `crewdeck.json`, an untrusted
 * workspace, a refused input: its message names the file, line or field) is bad input: its message,
 * exit 2, no stack. Anything else is a fault of ours: its stack (no bundled source line), exit 1.
 */
async function reportUncaught(name: string, error: unknown, json: boolean): Promise<number> {
  if (error instanceof Error && !BUILTIN_ERRORS.has(error.name)) {
    const { reportBadInput } = await import('./terminalStop');
    const { createStyle, colorFor } = await import('./style');
    return reportBadInput(error, json, createStyle(!json && colorFor(process.stderr)), `crewdeck ${name}:`);
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) process.stdout.write(`${JSON.stringify({ status: 'error', error: error instanceof Error ? error.message : String(error) })}\n`);
  process.stderr.write(`crewdeck ${name}: internal error: ${text}\n`);
  return EXIT.runFailed;
}
