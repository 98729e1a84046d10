import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../shared/model/tool';
import { createBuiltinRegistry, DuplicateToolError, toChatSchema, ToolRegistry } from '../../runtime/tools/registry';
import { defineTool } from '../../runtime/tools/tool';

describe('ToolRegistry', () => {
  it('holds every built-in tool, each with an object schema that forbids unknown properties', () => {
    const registry = createBuiltinRegistry();
    expect([...registry.names()].sort()).toEqual([...BUILTIN_TOOLS].sort());
    for (const tool of registry.list()) {
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(Array.isArray(tool.parameters.required), tool.name).toBe(true);
    }
  });

  it('registers, finds and refuses duplicates', () => {
    const echo = defineTool({ name: 'echo', description: 'Echo', parameters: { type: 'object' }, execute: async () => 'x' });
    const registry = new ToolRegistry().register(echo);
    expect(registry.has('echo')).toBe(true);
    expect(registry.get('echo')).toBe(echo);
    expect(registry.get('nope')).toBeUndefined();
    expect(() => registry.register(echo)).toThrow(DuplicateToolError);
  });

  it('gives the chat-model schema of a tool', () => {
    const tool = createBuiltinRegistry().get('read_file')!;
    expect(toChatSchema(tool)).toEqual({ name: 'read_file', description: tool.description, parameters: tool.parameters });
    expect(Object.keys(toChatSchema(tool))).toEqual(['name', 'description', 'parameters']);
  });
});
