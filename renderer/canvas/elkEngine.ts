import ELK from 'elkjs/lib/elk-api.js';
import type { ElkEngine } from '../commands/layout/elkLayout';

let engine: ElkEngine | undefined;

/**
 * ELK running in a web worker (started on first use and kept): a layout of the 300-node crew takes
 * seconds in ELK (bench:layout), and the canvas keeps responding meanwhile.
 */
export function elkEngine(): ElkEngine {
  engine ??= new ELK({ workerFactory: () => new Worker(new URL('./elkWorker.ts', import.meta.url), { type: 'module' }) });
  return engine;
}
