import type { ToolRef } from '../../shared/model/tool';
import type { Tool } from './tool';

/**
 * The tool as one ToolRef offers it to the model: with the description and parameters its settings
 * call for (a pinned path takes the `path` argument away), and under the ref's `name` / `description`
 * when it has them (CrewAI's `name=` / `description=`). `taken` holds the names already offered to the
 * same agent: a second tool of the same name is offered as `<name>_2` (validate warns about it).
 */
export function toolForRef(base: Tool, ref: Pick<ToolRef, 'tool' | 'config' | 'name' | 'description'>, taken: Set<string>): Tool {
  const configured = ref.config && base.forConfig ? base.forConfig(ref.config) : undefined;
  let name = ref.name ?? base.name;
  for (let n = 2; taken.has(name); n += 1) name = `${ref.name ?? base.name}_${n}`;
  taken.add(name);
  if (!configured && name === base.name && ref.description === undefined) return base;
  return {
    ...base,
    name,
    id: ref.tool,
    description: ref.description ?? configured?.description ?? base.description,
    parameters: configured?.parameters ?? base.parameters,
  };
}
