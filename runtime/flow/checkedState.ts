import type { FlowDocument } from '../../shared/model/flow';
import { compileSchema, describeSchemaErrors } from '../validation/jsonSchema';
import type { CheckpointOp, FlowCheckpoint } from './flowCheckpoint';
import type { FlowCheckpointWriter } from './flowCheckpointWriter';
import { FlowStateInvalid } from './flowErrors';
import { applyStateOps, type StateOp } from './stateOps';

/** A flow run's live state (the checkpoint's): every change checked against the document's state schema first. */
export class CheckedState {
  private readonly validateState?: ReturnType<typeof compileSchema>;

  constructor(
    doc: FlowDocument,
    private readonly cp: FlowCheckpoint,
    private readonly checkpoint: FlowCheckpointWriter,
  ) {
    if (doc.state.schema) this.validateState = compileSchema(doc.state.schema);
  }

  /**
   * Applies state operations to the live state (checked against the schema first); answers the new state.
   * `stored`: the same operations as the checkpoint is to hold them (a for_each's list as its items).
   */
  apply(ops: readonly StateOp[], what: string, stored: readonly CheckpointOp[] = ops): Record<string, unknown> {
    const next = applyStateOps(this.cp.state, ops);
    if (ops.length === 0) return next;
    this.check(next, what);
    this.cp.state = next;
    this.checkpoint.addOps(stored);
    return next;
  }

  check(state: Record<string, unknown>, what: string): void {
    if (!this.validateState || this.validateState(state)) return;
    throw new FlowStateInvalid(`${what} breaks the state schema: ${describeSchemaErrors(this.validateState.errors)}`);
  }
}
