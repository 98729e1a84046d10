/** The trigger for a listen condition: none left means the method starts the flow. */
export function triggerFor(condition: unknown): Record<string, unknown> {
  return condition === undefined ? { start: true } : { listen: condition };
}
