import type { EvaluationRequest } from './quickjsEvaluation';
import type { ScriptFailure } from './scriptErrors';

/** The messages between the host (scriptWorker.ts) and the sandbox worker thread (sandboxWorker.ts). */

/**
 * The largest result, in characters of JSON, a script may hand back: the host parses it on its main
 * thread, outside any deadline, so a script that builds a huge value from shared references (small in
 * its own heap) cannot stall the host with it. Larger results fail as a ScriptError in the worker.
 */
export const MAX_RESULT_CHARS = 1024 * 1024;

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
