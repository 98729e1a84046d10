import type { RunContext } from '../agent/runContext';
import type { Span } from '../events/span';
import type { FlowMethod } from '../../shared/model/flow';
import type { ItemResult, MethodScope } from './bodies/types';
import type { ActiveCall, FlowCheckpoint } from './flowCheckpoint';
import type { FlowCheckpointWriter } from './flowCheckpointWriter';
import type { FlowRunRequest } from './flowRunTypes';

/** A method call of a flow run. */
export interface MethodCallSite {
  method: FlowMethod;
  span: Span;
  call: ActiveCall;
}

/** What a method's body sees of its run: the run's gate, its span, the live state, its input and finished items. */
export function methodScope(
  ctx: RunContext,
  req: Pick<FlowRunRequest, 'doc' | 'documentPath' | 'deps'>,
  cp: FlowCheckpoint,
  checkpoint: FlowCheckpointWriter,
  { method, span, call }: MethodCallSite,
): MethodScope {
  const items = {
    done: call.items ?? {},
    // One entry per finished item (with `persist`): the checkpoint grows by the item, not by the run.
    record: (index: number, result: ItemResult) => {
      (call.items ??= {})[String(index)] = result;
      if (checkpoint.checkpointing) checkpoint.appendEntry({ kind: 'item', key: call.key, index, result });
    },
  };
  return {
    ctx,
    span,
    flow: req.doc,
    documentPath: req.documentPath,
    method,
    // The live state (never changed in place: stateOps.ts makes a new one for each change).
    get state() {
      return cp.state;
    },
    input: call.input,
    deps: req.deps,
    items,
  };
}
