import { expect, it } from 'vitest';
import { fromWireName, toWireName } from '../../runtime/llm/toolWireName';

it('sends MCP tool names in the form OpenAI-style APIs accept, and maps them back', () => {
  expect(toWireName('calculator')).toBe('calculator');
  expect(toWireName('mcp:fs/list_directory')).toBe('mcp__fs__list_directory');
  const long = `mcp:server/${'x'.repeat(80)}`;
  const wire = toWireName(long);
  expect(wire).toMatch(/^[A-Za-z0-9_-]{64}$/);
  expect(toWireName(`${long}y`)).not.toBe(wire);
  const tools = [{ name: 'calculator' }, { name: 'mcp:fs/list_directory' }, { name: long }];
  expect(fromWireName('mcp__fs__list_directory', tools)).toBe('mcp:fs/list_directory');
  expect(fromWireName(wire, tools)).toBe(long);
  expect(fromWireName('calculator', tools)).toBe('calculator');
  // A name the request did not offer stays as the model sent it (the agent reports it as unknown).
  expect(fromWireName('mcp__other__x', tools)).toBe('mcp__other__x');
});
