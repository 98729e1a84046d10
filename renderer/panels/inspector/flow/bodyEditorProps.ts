/** What every body editor gets: the body as saved, where it is, and how to change its fields. */
export type BodyEditorProps = {
  nodeId: string;
  /** Document path of the body (`methods.2.body`), for validation messages. */
  path: string;
  body: Record<string, unknown>;
  /** The method's routes (a router's body chooses one of them). */
  routes: string[];
  profiles: readonly string[];
  /** Sets a body field (`undefined` removes it); `editKey` separates undo steps within one field (rows of a list). */
  set(field: string, value: unknown, editKey?: string): void;
};

export const TEMPLATE_HINT = 'Templates: {state.field} reads the flow state, {input} the output of the method that triggered this one.';
