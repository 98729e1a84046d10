// The ELK layout engine in a web worker: loading elk's worker build inside a worker makes it answer
// elk-api's messages (it installs its own `onmessage`). Started by elkEngine.ts.
import 'elkjs/lib/elk-worker.min.js';
