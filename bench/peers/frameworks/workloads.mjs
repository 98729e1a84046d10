// What each workload asks of a framework. Every framework module exports the same four functions
// (sequential, sequentialWithTools, delegation, parallel) built from these prompts, so the model
// server sees the same conversation shapes from all of them.

export const TASKS = 200;
export const DELEGATIONS = 20;
export const PARALLEL = 8;

/** The i-th task of W1/W2: W2 asks for the calculator every 4th task. */
export function taskPrompt(i, previous, withTools) {
  const calc = withTools && i % 4 === 0 ? ` CALC ${i + 2} * (${i} + 7) / 4` : '';
  return `Task ${i + 1}: summarise the figures for section ${i + 1} in one line.${calc}${previous ? `\n\nPrevious task's output:\n${previous}` : ''}`;
}

export function delegationPrompt(i) {
  return `Task ${i + 1}: DELEGATE the summary of section ${i + 1} to the Worker, then report its answer.`;
}

export function parallelPrompt(i) {
  return `Task ${i + 1}: SLOW200 answer in one line.`;
}

/** The calculator peers get (the model only ever sends our own digits and operators). */
export function calculate(expression) {
  if (!/^[0-9+*/(). -]+$/.test(expression)) throw new Error(`not an arithmetic expression: ${expression}`);
  return String(Function(`"use strict"; return (${expression});`)());
}

export const SYSTEM = 'You are a careful analyst. Answer in one short line.';
