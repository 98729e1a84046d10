import type { ToolRef } from '../../shared/model/tool';
import type { SearchFileType, SearchProvider } from '../../shared/model/toolConfig';
import { SEARCH_PROVIDER_INFO } from '../../shared/model/toolConfig';
import { crewAiToolClass, CREWAI_TOOL_CLASSES, type ToolClassSpec } from './crewAiToolClasses';

/**
 * The two-way mapping between crewai_tools classes (with their keyword arguments) and Crewdeck tool
 * references. Pure: no I/O. The importer calls `toolRefFromCrewAi` for each tool it reads and
 * `crewAiFromToolRef` when it exports; paths come back as written (the importer makes them resolve).
 */

import type { PyArg } from './pyArg';
export type { PyArg } from './pyArg';

export type CrewAiToolMapping = { ref: ToolRef; notes?: string[] } | { unmapped: string };

/** BaseTool's own keyword arguments, which every class takes. */
const BASE_KWARGS = new Set(['name', 'description', 'result_as_answer', 'max_usage_count', 'cache_function', 'args_schema', 'env_vars', 'package_dependencies']);

/** Maps one tool as a CrewAI project constructs it: `className(*positional, **kwargs)`. */
export function toolRefFromCrewAi(className: string, kwargs: Record<string, PyArg>, positional: PyArg[] = []): CrewAiToolMapping {
  const spec = crewAiToolClass(className);
  if (!spec) return { unmapped: unmappedReason(className) };
  const notes: string[] = [];
  const args: Record<string, PyArg> = {};
  positional.forEach((value, i) => {
    const param = spec.positional[i];
    if (param === undefined) notes.push(`${className}: positional argument ${i + 1} is not one Crewdeck reads; it was left out`);
    else args[param] = value;
  });
  Object.assign(args, kwargs);

  const config: Record<string, unknown> = { ...spec.fixed };
  const ref: ToolRef = { tool: spec.tool, resultAsAnswer: false, requiresApproval: false };
  for (const [key, value] of Object.entries(args)) {
    const setting = spec.kwargs[key];
    if (setting) {
      const read = setting.read(value);
      if ('value' in read) config[setting.config] = read.value;
      else if ('problem' in read) notes.push(`${className}: ${key} ${read.problem}; the setting was left out`);
    } else if (BASE_KWARGS.has(key)) {
      readBaseKwarg(className, key, value, ref, notes);
    } else {
      const why = spec.ignored[key];
      notes.push(`${className}: ${key} ${why ?? 'has no Crewdeck setting'}; it was left out`);
    }
  }
  if (Object.keys(config).length > 0) ref.config = config;
  return notes.length > 0 ? { ref, notes } : { ref };
}

/** The class (and keyword arguments) that a tool reference exports to, or undefined when CrewAI has none. */
export function crewAiFromToolRef(ref: ToolRef): { className: string; kwargs: Record<string, PyArg> } | undefined {
  const config = (ref.config ?? {}) as Record<string, unknown>;
  const spec = CREWAI_TOOL_CLASSES.find((s) => s.tool === ref.tool && s.exportsFrom(config));
  if (!spec) return undefined;
  const kwargs: Record<string, PyArg> = {};
  for (const [key, setting] of Object.entries(spec.kwargs)) {
    const value = config[setting.config];
    if (value === undefined) continue;
    const written = setting.write ? setting.write(value, config) : (value as PyArg);
    if (written !== undefined) kwargs[key] = written;
  }
  if (ref.name !== undefined) kwargs.name = ref.name;
  if (ref.description !== undefined) kwargs.description = ref.description;
  if (ref.resultAsAnswer) kwargs.result_as_answer = true;
  if (ref.maxUsageCount !== undefined) kwargs.max_usage_count = ref.maxUsageCount;
  return { className: spec.className, kwargs };
}

function readBaseKwarg(className: string, key: string, value: PyArg, ref: ToolRef, notes: string[]): void {
  const shown = `${className}: ${key}`;
  if (key === 'name' || key === 'description') {
    if (typeof value === 'string' && value.trim() !== '') ref[key] = value;
    else notes.push(`${shown} is not a plain string; the tool keeps its own ${key}`);
  } else if (key === 'result_as_answer') {
    if (typeof value === 'boolean') ref.resultAsAnswer = value;
    else notes.push(`${shown} is not True or False; it was left out`);
  } else if (key === 'max_usage_count') {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) ref.maxUsageCount = value;
    else if (value !== null) notes.push(`${shown} is not a positive whole number; it was left out`);
  } else {
    notes.push(`${shown} is Python-only (${key}); it was left out`);
  }
}

function unmappedReason(className: string): string {
  return `${className} has no Crewdeck built-in equivalent; rebuild it as an MCP server, or as a Python tool of the project (which runs through the bridge)`;
}

/** The provider a web search class stands for (for messages and tests). */
export function providerOfClass(className: string): SearchProvider | undefined {
  const spec = crewAiToolClass(className);
  const provider = spec?.fixed.provider;
  return typeof provider === 'string' && provider in SEARCH_PROVIDER_INFO ? (provider as SearchProvider) : undefined;
}

/** The `file_search` kind a RAG class stands for. */
export function fileTypeOfClass(className: string): SearchFileType | undefined {
  const fileType = crewAiToolClass(className)?.fixed.fileType;
  return typeof fileType === 'string' ? (fileType as SearchFileType) : undefined;
}

export type { ToolClassSpec };

/** A project's own Python tools as an MCP server entry of `crewdeck.json` (`mcp.servers.<name>`). */
export interface PythonToolServerEntry {
  transport: 'python';
  /** The project's folder (absolute: the crew runs from any folder). */
  project: string;
  /** Folders (relative to the project) that Python imports modules from, e.g. `src`. */
  path: string[];
  /** Dotted module names that define the tools. */
  modules: string[];
  /** An interpreter command that replaces the project's own. */
  python?: string;
}

/**
 * The server entry for a project's Python tools and its name: `<project folder name, lower-case,
 * [a-z0-9-]>-tools`. A crew refers to a tool as `mcp:<name>/<Python identifier>`.
 */
export function pythonToolServer(projectDir: string, modules: string[], path: string[]): { name: string; entry: PythonToolServerEntry } {
  const folder = projectDir.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  const slug = folder
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return { name: `${slug || 'project'}-tools`, entry: { transport: 'python', project: projectDir, path: [...path], modules: [...modules] } };
}
