import type { FlowBody, FlowBodyKind, FlowDocument, FlowMethod } from '../../../shared/model/flow';
import type { ReadAs } from '../../../shared/events';
import type { RunContext } from '../../agent/runContext';
import type { CrewDeps } from '../../crew/executeCrew';
import type { Span } from '../../events/span';
import type { ModelResolver } from '../../llm/resolveModel';
import type { StateOp } from '../stateOps';
import type { ToolServices } from '../../tools/tool';

/** What a flow's methods need from around the run. */
export interface FlowDeps extends CrewDeps {
  /** Models for a document at this workspace-relative path (scripted models' files are relative to it). */
  modelsFor(documentPath: string | undefined): ModelResolver;
  /**
   * Throws WorkspaceUntrusted when a crew file a method is about to run widens the network beyond what
   * the user trusted (its allowedHosts, knowledge URLs, models on hosts of their own): asked of exactly
   * the crew that was loaded to run, at the point of use (the file may have changed since the run opened).
   */
  requireReach?(doc: unknown, source: string): void;
  /** Keys and the embedder lent to the run's tools. */
  toolServices?: ToolServices;
}

/**
 * One call of one method. The body may not change `state`: it returns the fields it sets (or the
 * operations it applies). `state` is the flow's live state when read: other methods' changes show.
 */
export interface MethodScope {
  ctx: RunContext;
  /** The method's span: the body's events nest under it. */
  span: Span;
  flow: FlowDocument;
  /** The flow document's path (relative to the workspace), when it came from a file. */
  documentPath?: string;
  method: FlowMethod;
  state: Readonly<Record<string, unknown>>;
  /** The triggering method's output (undefined for start methods). */
  input: string | undefined;
  deps: FlowDeps;
  /** Inside a for_each body: the current item and its index. */
  each?: { item: unknown; index: number };
  /** Items of this call's for_each that finished (also in an earlier session), and how to record one. */
  items?: { done: Readonly<Record<string, ItemResult>>; record(index: number, result: ItemResult): void };
}

/** A finished for_each item, as checkpointed. */
export interface ItemResult {
  output: string;
  json?: unknown;
}

/** A person is asked; the flow pauses until the answer comes (maybe in another process). */
export interface FeedbackAsk {
  message: string;
  output: string;
  outcomes?: string[];
  defaultOutcome?: string;
}

export type BodyOutcome =
  | {
      kind: 'done';
      output: string;
      json?: unknown;
      route?: string;
      /** Why this route (a rule that matched, the classified feedback…). */
      routeReason?: string;
      /** The model reply a route was read from, and how when not literally (a classified feedback outcome). */
      routeReply?: string;
      routeReadAs?: ReadAs[];
      /** State fields the method sets (top-level keys). */
      set?: Record<string, unknown>;
      /** Finer changes to the state (a script's), applied after `set` to the live state (stateOps.ts). */
      ops?: StateOp[];
      /**
       * A for_each's: `set[itemsInto]` is the list of this call's item results (each recorded through
       * `scope.items`) and `output` its JSON, so a checkpoint may refer to the items instead of copying them.
       */
      itemsInto?: string;
    }
  | { kind: 'pause'; ask: FeedbackAsk };

export type BodyRunner<K extends FlowBodyKind> = (body: Extract<FlowBody, { type: K }>, scope: MethodScope) => Promise<BodyOutcome>;
export type BodyRunners = { [K in FlowBodyKind]: BodyRunner<K> };
