import { DocumentInvalid, errorMessage } from '../errors';
import type { Style } from './style';
import { EXIT } from './usage';

/** Ctrl-C cancels through `controller` (a second Ctrl-C quits at once). Returns the detach function. */
export function cancelOnCtrlC(controller: AbortController, what: string): () => void {
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    process.stderr.write(`\nCancelling ${what} (Ctrl-C again to quit at once)…\n`);
    controller.abort(new Error('cancelled from the terminal'));
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}

/** Bad input (exit 2): `error: …` on stderr, or `{"status":"invalid",…}` on stdout with --json. */
export function reportBadInput(error: Error, json: boolean, style: Style, label = 'error:'): number {
  if (json) {
    const problems = error instanceof DocumentInvalid ? error.problems : undefined;
    process.stdout.write(`${JSON.stringify({ status: 'invalid', error: errorMessage(error), ...(problems ? { problems } : {}) })}\n`);
  } else {
    process.stderr.write(`${style.red(label)} ${errorMessage(error)}\n`);
  }
  return EXIT.badInput;
}
