import type { HostService } from '../../runtime/host/hostService';
import type { FromRuntime, ToRuntime } from './runtimeMessages';

/** The slice of Electron's `process.parentPort` the runtime uses (a test passes a Node IPC shim). */
export interface ParentPortLike {
  on(event: 'message', listener: (message: { data: unknown }) => void): unknown;
  postMessage(message: FromRuntime): void;
}

export interface RuntimeServerOptions {
  port: ParentPortLike;
  workspace: string;
  /** Environment the HostService reads API keys from; `env` messages update it in place. */
  env: NodeJS.ProcessEnv;
  createService(workspace: string): HostService;
  /** Called after a `shutdown` message has closed the service. */
  exit(code: number): void;
}

/**
 * Answers the main process's requests with a HostService and forwards its pushes. When the service
 * cannot be created, the process stays up and answers every request with the reason, so the window
 * shows it instead of a restart loop.
 */
export function serveRuntime(options: RuntimeServerOptions): void {
  const { port, env } = options;
  let service: HostService | undefined;
  let failure: string | undefined;
  try {
    service = options.createService(options.workspace);
    service.subscribe((push) => port.postMessage({ type: 'push', push }));
  } catch (error) {
    failure = `the runtime could not open the workspace ${options.workspace}: ${error instanceof Error ? error.message : String(error)}`;
  }

  port.on('message', ({ data }) => {
    const message = data as ToRuntime;
    switch (message?.type) {
      case 'request':
        void answer(message.id, message.channel, message.request);
        return;
      case 'env':
        for (const [name, value] of Object.entries(message.values)) {
          if (value === null) delete env[name];
          else env[name] = value;
        }
        return;
      case 'shutdown':
        void (service?.close() ?? Promise.resolve()).finally(() => options.exit(0));
        return;
      default:
        return;
    }
  });

  async function answer(id: number, channel: string, request: unknown): Promise<void> {
    if (!service) {
      port.postMessage({ type: 'result', id, result: { ok: false, error: { code: 'internal', message: failure ?? 'the runtime is not ready' } } });
      return;
    }
    try {
      port.postMessage({ type: 'result', id, result: await service.handle(channel, request) });
    } catch (error) {
      // handle() never throws by contract; a bug that does must still answer the request.
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ type: 'result', id, result: { ok: false, error: { code: 'internal', message } } });
    }
  }

  port.postMessage(failure === undefined ? { type: 'ready', workspace: options.workspace } : { type: 'fatal', message: failure });
}
