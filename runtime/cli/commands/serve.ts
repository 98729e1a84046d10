import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHostService } from '../../host/createHostService';
import { TerminalCodeConfirmer } from '../../trust/trustConfirmation';
import { startBrowserServer } from '../../host/browserServer';
import { WorkspaceInvalid } from '../../errors';
import { parseOptions } from '../options';
import { createStyle, colorFor } from '../style';
import { UsageError, EXIT } from '../usage';
import { chooseUserWorkspace, findExamples, rememberWorkspace } from '../userWorkspace';
import { workspaceDir } from '../workspaceDir';

const DEFAULT_PORT = 4820;

/** `crewdeck serve`: browser mode — the app's renderer and host API on 127.0.0.1, behind a token. */
export async function serveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    port: { type: 'string', short: 'p' },
    workspace: { type: 'string', short: 'w' },
  });
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments (got ${positionals.join(' ')}); use --workspace DIR`);
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, not "${values.port}"`);
  const style = createStyle(colorFor(process.stdout));

  let workspace: string;
  try {
    if (values.workspace !== undefined) {
      workspace = workspaceDir(values.workspace);
    } else {
      // Without --workspace: the person's own workspace (last used, else ~/Documents/Crewdeck with the examples).
      const chosen = chooseUserWorkspace(process.env, findExamples(dirname(fileURLToPath(import.meta.url))));
      workspace = workspaceDir(chosen.workspace);
      if (chosen.created) process.stdout.write(`Created the workspace ${workspace} with the example crews and flows.\n`);
    }
    rememberWorkspace(process.env, workspace);
  } catch (error) {
    if (!(error instanceof WorkspaceInvalid)) throw error;
    process.stderr.write(`${style.red('error:')} ${error.message}\n`);
    return EXIT.badInput;
  }
  const rendererDir = findRenderer();
  if (!rendererDir) {
    process.stderr.write(`${style.red('error:')} the app is not built (no dist/renderer/index.html); run \`npm run build\`\n`);
    return EXIT.badInput;
  }

  // Trust asked for in the browser is confirmed with a code printed here (the page alone cannot trust).
  const host = createHostService({ workspace, transport: 'websocket', confirmTrust: new TerminalCodeConfirmer((text) => process.stderr.write(text)) });
  let server;
  try {
    server = await startBrowserServer({ host, rendererDir, port });
  } catch (error) {
    await host.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      process.stderr.write(`${style.red('error:')} port ${port} is in use; pick another with --port N (0 picks a free one)\n`);
      return EXIT.badInput;
    }
    throw error;
  }
  process.stdout.write(
    `${style.bold('Crewdeck')} is serving ${style.cyan(workspace)} in browser mode.\n\n` +
      `  Open ${style.bold(server.url)}\n\n` +
      style.dim('Only this machine can connect (127.0.0.1), and only with the token in that URL. Ctrl-C stops.\n'),
  );

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(style.dim('\nStopping: cancelling running runs (their events are kept)…\n'));
  await server.close();
  await host.close();
  return EXIT.ok;
}

/** The package's dist/renderer, found by walking up from this module (dist/cli in the bundle). */
function findRenderer(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'dist', 'renderer');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}
