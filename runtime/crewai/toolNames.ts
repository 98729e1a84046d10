import type { BuiltinToolName } from '../../shared/model/tool';

/**
 * CrewAI tool classes (crewai_tools) with a Crewdeck built-in that does the same job. Everything else
 * (search APIs, RAG tools, code interpreters, custom Python tools) has no equivalent and is reported.
 */
export const CREWAI_TO_BUILTIN: Record<string, BuiltinToolName> = {
  FileReadTool: 'read_file',
  FileWriterTool: 'write_file',
  DirectoryReadTool: 'list_directory',
  ScrapeWebsiteTool: 'http_request',
  ScrapeElementFromWebsiteTool: 'http_request',
};

/** The class written for each built-in that CrewAI has (the first CrewAI class naming it). */
export const BUILTIN_TO_CREWAI: Partial<Record<string, string>> = {
  read_file: 'FileReadTool',
  write_file: 'FileWriterTool',
  list_directory: 'DirectoryReadTool',
  http_request: 'ScrapeWebsiteTool',
};

/** "file_read_tool" → "FileReadTool", so YAML tool names in snake case match the classes too. */
export function toolClassName(name: string): string {
  if (/^[A-Z]/.test(name)) return name;
  return name
    .split(/[_-]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}
