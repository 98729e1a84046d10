import { stableJson } from '../tools/stableJson';

/**
 * What a ReAct agent reads instead of a result when it repeats the call it just made (CrewAI's
 * "repeated usage" note, in our words): the tool is not run again.
 */
export const REPEATED_CALL_NOTE =
  'I just used this tool with exactly this input, so running it again would tell me nothing new. ' +
  'I must not repeat this input: I will try a different input or another step instead.';

/**
 * CrewAI's guard against a ReAct loop: a call with the same tool and the same input (keys in any order)
 * as the call just before it that gave a result is refused. A call that failed or was blocked is not
 * remembered, so it may be tried again; any other call in between ends the repeat.
 */
export class LastToolCall {
  private last?: string;

  repeats(tool: string, args: unknown): boolean {
    return this.last === key(tool, args);
  }

  remember(tool: string, args: unknown): void {
    this.last = key(tool, args);
  }

  forget(): void {
    this.last = undefined;
  }
}

function key(tool: string, args: unknown): string {
  return `${tool}\u0000${stableJson(args)}`;
}
