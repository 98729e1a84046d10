// Stands in for Electron's utilityProcess in tests: gives a Node child the `process.parentPort` that
// the runtime host expects, over Node's own IPC, then loads the module named by the first argument.
const { EventEmitter } = require('node:events');

const port = new EventEmitter();
port.postMessage = (message) => process.send(message);
process.on('message', (data) => port.emit('message', { data }));
process.parentPort = port;
require(process.argv[2]);
