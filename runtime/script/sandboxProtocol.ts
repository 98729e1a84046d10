import type { EvaluationRequest } from './quickjsEvaluation';
import type { ScriptFailure } from './scriptErrors';

/** The messages between the host (scriptWorker.ts) and the sandbox worker thread (sandboxWorker.ts). */

export interface WorkerRequest extends EvaluationRequest {
  id: number;
}

export type WorkerReply =
  /** QuickJS is loaded: scripts can be sent. */
  | { type: 'ready' }
  /** QuickJS could not be loaded in the worker. */
  | { type: 'unavailable'; message: string }
  /** The script's result as JSON text (undefined when JSON cannot carry it). */
  | { type: 'result'; id: number; json: string | undefined }
  | { type: 'failed'; id: number; failure: ScriptFailure };
