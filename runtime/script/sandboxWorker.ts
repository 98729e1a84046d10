import { parentPort } from 'node:worker_threads';
import { evaluateScript, loadQuickJS, type EvaluationRequest } from './quickjsEvaluation';
import { describeFailure, ScriptError } from './scriptErrors';
import { MAX_RESULT_CHARS, type WorkerReply, type WorkerRequest } from './sandboxProtocol';

/**
 * The worker thread QuickJS runs on (started by scriptWorker.ts). It loads the WebAssembly module, says
 * so, then evaluates one script at a time. The host terminates the whole thread when a script overruns
 * its deadline, so nothing here has to stop by itself; a script that ends (or fails) in time is answered.
 */
const port = parentPort;
if (!port) throw new Error('sandboxWorker.ts runs as a worker thread (runtime/script/scriptWorker.ts starts it)');

const send = (reply: WorkerReply) => port.postMessage(reply);

loadQuickJS().then(
  () => send({ type: 'ready' }),
  (error: unknown) => send({ type: 'unavailable', message: error instanceof Error ? error.message : String(error) }),
);

port.on('message', (request: WorkerRequest) => {
  void answer(request.id, request);
});

async function answer(id: number, request: EvaluationRequest): Promise<void> {
  try {
    const json = await evaluateScript(request);
    if (json !== undefined && json.length > MAX_RESULT_CHARS) {
      throw new ScriptError(`script result is ${json.length.toLocaleString('en-US')} characters of JSON, over the limit of ${MAX_RESULT_CHARS.toLocaleString('en-US')}`);
    }
    send({ type: 'result', id, json });
  } catch (error) {
    if (error instanceof ScriptError) send({ type: 'failed', id, failure: describeFailure(error) });
    else send({ type: 'failed', id, failure: { kind: 'error', message: `script failed: ${error instanceof Error ? error.message : String(error)}` } });
  }
}
