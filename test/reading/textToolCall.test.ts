import { describe, expect, it } from 'vitest';
import { readTextToolCall } from '../../runtime/reading/textToolCall';

const offered = (name: string) => ['calculator', 'search_web'].includes(name);

describe('reading a tool call written as text', () => {
  it('reads {name, parameters}', () => {
    expect(readTextToolCall('{"name": "calculator", "parameters": {"expression": "6*7"}}', offered)).toEqual({
      name: 'calculator',
      args: { expression: '6*7' },
      arguments: '{"expression":"6*7"}',
    });
  });

  it('reads {tool, args}, {function, arguments} with arguments as JSON text, and a fenced call', () => {
    expect(readTextToolCall('{"tool": "search_web", "args": {"query": "tokyo"}}', offered)?.args).toEqual({ query: 'tokyo' });
    expect(readTextToolCall('{"function": "calculator", "arguments": "{\\"expression\\": \\"1+1\\"}"}', offered)?.args).toEqual({ expression: '1+1' });
    expect(readTextToolCall('```json\n{"name": "calculator", "arguments": {"expression": "2"}}\n```', offered)?.name).toBe('calculator');
    expect(readTextToolCall('{"type": "function", "function": {"name": "calculator", "arguments": {"expression": "3"}}}', offered)?.args).toEqual({ expression: '3' });
  });

  it('a call without arguments has empty ones', () => {
    expect(readTextToolCall('{"name": "search_web"}', offered)?.args).toEqual({});
  });

  it('stays text when no offered tool has the name', () => {
    expect(readTextToolCall('{"name": "weather", "parameters": {"city": "Oslo"}}', offered)).toBeUndefined();
  });

  it('stays text when the reply is not exactly one call object', () => {
    expect(readTextToolCall('Let me compute: {"name": "calculator", "parameters": {"expression": "6*7"}}', offered)).toBeUndefined();
    expect(readTextToolCall('{"name": "calculator", "result": 42}', offered)).toBeUndefined();
    expect(readTextToolCall('[{"name": "calculator", "parameters": {}}]', offered)).toBeUndefined();
    expect(readTextToolCall('{"name": "calculator", "parameters": [1]}', offered)).toBeUndefined();
    expect(readTextToolCall('The answer is 42.', offered)).toBeUndefined();
  });
});
