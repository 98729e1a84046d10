// Preloaded into every benchmark process (`node --import ./loopbackOnly.mjs`): a framework that tries
// to reach anything but loopback (a tokenizer download, telemetry, an update check) fails at once
// instead of sending traffic off this machine, and the attempt is counted on stderr.
import net from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = args[0];
  const options = typeof first === 'object' && first !== null ? (Array.isArray(first) ? first[0] : first) : { port: first, host: args[1] };
  const host = options?.host ?? (options?.path ? 'localhost' : 'localhost');
  if (!options?.path && !LOOPBACK.has(String(host))) {
    process.stderr.write(`bench: refused a connection to ${host} (only loopback is allowed)\n`);
    const error = new Error(`bench: connections to ${host} are refused (loopback only)`);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
