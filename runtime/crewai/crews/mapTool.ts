import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { McpServerSchema } from '../../../shared/model/mcpSettings';
import type { ToolRef } from '../../../shared/model/tool';
import { memberByName } from '../construct/crewBase';
import { plainOf, textOf, type ObjVal, type Val } from '../construct/values';
import { pythonToolServer, toolRefFromCrewAi, type PyArg } from '../crewAiTools';
import { createBuiltinRegistry } from '../../tools/registry';

const BUILTINS = createBuiltinRegistry();
import type { MapContext, Setting } from './mapContext';
import { shown, type CrewScope } from './mapValues';

/**
 * Whether the Python tool bridge (an MCP server entry with `"transport": "python"`) exists in this
 * build: the project's own @tool functions and BaseTool classes are imported as its tools only then.
 */
export const PYTHON_TOOLS_RUN = McpServerSchema.safeParse({ transport: 'python', project: '/p', path: ['src'], modules: ['m'] }).success;

/** An agent's or task's `tools`: each item a crewai_tools object, a project tool, or a YAML name. */
export function toolsSetting(ctx: MapContext, scope: CrewScope, s: Setting | undefined, item: string): ToolRef[] {
  if (!s || (s.value.t === 'lit' && s.value.v === null)) return [];
  const items = s.value.t === 'list' ? s.value.items : [s.value];
  const refs: ToolRef[] = [];
  for (const v of items) {
    const ref = toolOf(ctx, scope, v, s.at, item, s.from === 'yaml', 0);
    if (ref && !refs.some((r) => JSON.stringify(r) === JSON.stringify(ref))) refs.push(ref);
  }
  return refs;
}

function toolOf(ctx: MapContext, scope: CrewScope, v: Val, at: string, item: string, fromYaml: boolean, depth: number): ToolRef | undefined {
  if (depth > 5) return undefined;
  const name = textOf(v);
  if (name !== undefined) {
    const member = fromYaml && scope.owner ? memberByName(ctx.ev, scope.owner, name) : undefined;
    if (member) return toolOf(ctx, scope, member, at, item, false, depth + 1);
    return crewAiTool(ctx, name, [], new Map(), at, item);
  }
  if (v.t === 'obj') return crewAiTool(ctx, v.cls, v.args.pos, v.args.kw, at, item, v);
  if (v.t === 'func' && ctx.ev.isDecorated(v.def, 'tool')) {
    // The bridge serves module-level @tool functions and BaseTool classes (SEAMS.md); one defined in a class body is listed.
    if (v.cls) {
      ctx.note(at, `${item}: ${v.cls.name}.${v.def.name}`, `a @tool function defined inside the class ${v.cls.name} (${v.mod.file}:${v.def.line}); the Python tool bridge serves module-level @tool functions and BaseTool classes — move it to module level to run it`);
      return undefined;
    }
    return pythonTool(ctx, v.mod.file, v.def.name, at, item);
  }
  if (v.t === 'inst' && ctx.ev.baseNames(v.cls).includes('BaseTool')) return pythonTool(ctx, v.cls.mod.file, v.cls.name, at, item);
  if (v.t === 'class' && ctx.ev.baseNames(v.ref).includes('BaseTool')) return pythonTool(ctx, v.ref.mod.file, v.ref.name, at, item);
  ctx.note(at, `${item}: ${shown(v)}`, v.t === 'unknown' ? `not a tool the importer can identify without running the Python (${v.why}); add the tool in Crewdeck` : 'not a tool the importer can identify; add the tool in Crewdeck');
  return undefined;
}

/** A crewai_tools class (or its snake-case YAML name) through the tools' mapping table. */
function crewAiTool(ctx: MapContext, className: string, pos: Val[], kw: Map<string, Val>, at: string, item: string, obj?: ObjVal): ToolRef | undefined {
  const mapped = toolRefFromCrewAi(className, Object.fromEntries([...kw].map(([k, x]) => [k, pyArg(x)])), pos.map(pyArg));
  if ('unmapped' in mapped) {
    ctx.note(at, `${item}: ${obj ? `${className}(...)` : className}`, mapped.unmapped);
    return undefined;
  }
  for (const n of mapped.notes ?? []) ctx.note(at, `${item}: ${className}`, n);
  // A built-in the mapping names that this build does not have yet is listed, not written into a crew that cannot start.
  const missing = BUILTINS.missingReason(mapped.ref.tool);
  if (missing) {
    ctx.note(at, `${item}: ${obj ? `${className}(...)` : className}`, `maps to the ${mapped.ref.tool} built-in, but ${missing}; the tool is left out`);
    return undefined;
  }
  return withFiles(ctx, mapped.ref, at, item);
}

/** Paths a tool is pinned to resolve from the project folder (where CrewAI runs): the files come along. */
function withFiles(ctx: MapContext, ref: ToolRef, at: string, item: string): ToolRef {
  const config = ref.config as Record<string, unknown> | undefined;
  for (const key of ['path', 'directory']) {
    const given = config?.[key];
    if (typeof given !== 'string' || (ref.tool === 'write_file' && key === 'directory')) continue;
    const abs = isAbsolute(given) ? given : resolve(ctx.src.root, given);
    const rel = relative(ctx.src.root, abs).split(sep).join('/');
    if (rel.startsWith('..') || isAbsolute(rel)) {
      ctx.note(at, `${item}: ${ref.tool} ${given}`, 'the path is outside the project, so the file is not brought along; the tool is imported without it');
      delete config![key];
      continue;
    }
    if (existsSync(abs) && statSync(abs).isDirectory()) for (const f of filesUnder(abs)) ctx.bringAlong(f);
    else if (!ctx.bringAlong(abs)) ctx.note(at, `${item}: ${ref.tool} ${given}`, 'the file is not in the project; the imported tool names it as given');
    config![key] = rel === '' ? '.' : rel;
  }
  return ref;
}

function filesUnder(dir: string, out: string[] = [], depth = 0): string[] {
  if (depth > 4 || out.length >= 200) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile()) out.push(join(dir, e.name));
    else if (e.isDirectory() && !e.name.startsWith('.') && e.name !== '__pycache__') filesUnder(join(dir, e.name), out, depth + 1);
  }
  return out;
}

/** The project's own tool: a tool of the project's Python tool server (`mcp:<project>-tools/<identifier>`). */
function pythonTool(ctx: MapContext, file: string, identifier: string, at: string, item: string): ToolRef | undefined {
  const underSrc = file.startsWith('src/');
  const module = (underSrc ? file.slice(4) : file).replace(/(\/__init__)?\.py$/, '').replace(/\//g, '.');
  ctx.out.sourceFiles.add(file);
  if (!PYTHON_TOOLS_RUN) {
    ctx.note(at, `${item}: ${identifier}`, `the project's own Python tool (${file}); this build of Crewdeck has no Python tool bridge to run it — rebuild it as an MCP server or use a built-in tool`);
    return undefined;
  }
  const modules = ctx.out.pythonTools.get(module) ?? new Set<string>();
  modules.add(identifier);
  ctx.out.pythonTools.set(module, modules);
  ctx.out.sourceFiles.add(file);
  const { name } = pythonToolServer(ctx.src.root, [...ctx.out.pythonTools.keys()], underSrc ? ['src'] : ['.']);
  return { tool: `mcp:${name}/${identifier}`, resultAsAnswer: false, requiresApproval: false };
}

/** A value as a keyword argument for the tools' mapping: a literal, or the Python it stands for. */
function pyArg(v: Val): PyArg {
  const plain = plainOf(v);
  if (plain !== undefined) return plain as PyArg;
  if (v.t === 'path') return v.abs;
  return { $python: shown(v) };
}
