import { redactKnown } from '../redactSecrets';
import fs from 'node:fs/promises';
import path from 'node:path';
import { defineTool, ToolError, type ToolContext } from './tool';
import { assertWritable } from './protectedFiles';
import { displayPath, resolveInWorkspace } from './workspacePath';

const PROTECTED_NOTE = "Crewdeck's settings, crew and flow documents, the files they use, .git/ and .crewdeck/ cannot be written.";

const CREWDECK_PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'Path of the file, relative to the workspace (e.g. "out/report.md").' },
    content: { type: 'string', description: 'The text to write.' },
    append: { type: 'boolean', description: 'Add to the end of the file instead of replacing it (default false).' },
  },
  required: ['path', 'content'],
  additionalProperties: false,
};

/** CrewAI's FileWriterTool arguments (`argumentStyle: "crewai"`). */
const CREWAI_PROPERTIES = {
  filename: { type: 'string', minLength: 1, description: "Name of the file to write, relative to 'directory'. May include sub-folders, which are created." },
  content: { type: 'string', description: 'The text content to write to the file.' },
  directory: { type: 'string', description: 'Folder to write the file into, relative to the workspace (default "./").' },
  overwrite: { type: ['boolean', 'string'], description: 'Whether to replace the file when it already exists: true/false (also yes/no, on/off, 1/0). Default false.' },
};

/**
 * Settings: `allowDocumentWrites`; `path` pins the file (the model gives only the content); `directory`
 * keeps every write inside that workspace folder (FileWriterTool's `base_dir`); `argumentStyle: "crewai"`
 * takes FileWriterTool's arguments and keeps an existing file unless `overwrite` is true.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Write text to a file in the workspace, creating missing folders. Replaces the file unless "append" is ' +
    'true, in which case the text is added at the end. Paths are relative to the workspace folder. ' +
    PROTECTED_NOTE,
  parameters: CREWDECK_PARAMETERS,
  cacheable: false,
  forConfig(config) {
    const pinned = typeof config.path === 'string' ? config.path : undefined;
    const inside = typeof config.directory === 'string' ? ` inside the workspace folder "${config.directory}"` : '';
    if (config.argumentStyle === 'crewai') {
      const { filename, content, directory, overwrite } = CREWAI_PROPERTIES;
      return {
        description: pinned
          ? `Write content to the file "${pinned}". An existing file is kept unless "overwrite" is true. ${PROTECTED_NOTE}`
          : `A tool to write content to a specified file${inside}. Accepts filename, content, and optionally a directory path and overwrite flag as input. ${PROTECTED_NOTE}`,
        parameters: {
          type: 'object',
          properties: pinned ? { content, overwrite } : { filename, content, directory, overwrite },
          required: pinned ? ['content'] : ['filename', 'content'],
          additionalProperties: false,
        },
      };
    }
    if (!pinned) return { description: inside ? `${this.description} Every path is${inside}.` : this.description, parameters: this.parameters };
    const { content, append } = CREWDECK_PARAMETERS.properties;
    return {
      description: `Write text to the file "${pinned}", creating missing folders. Replaces the file unless "append" is true. ${PROTECTED_NOTE}`,
      parameters: { type: 'object', properties: { content, append }, required: ['content'], additionalProperties: false },
    };
  },
  async execute(args, ctx) {
    const crewai = ctx.config.argumentStyle === 'crewai';
    const file = targetFile(args, ctx, crewai);
    const shown = displayPath(ctx.workspace, file);
    assertWritable(ctx.workspace, file, { allowDocumentWrites: ctx.config.allowDocumentWrites === true });
    // A key a model or tool echoed never reaches the file, in any encoding.
    const content = redactKnown(args.content as string);
    const append = !crewai && args.append === true;
    const overwrite = crewai ? truthy(args.overwrite ?? false) : true;
    try {
      const existing = await fs.stat(file).catch(() => undefined);
      if (existing?.isDirectory()) throw new ToolError(`"${shown}" is a directory; give a file path`);
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (append) await fs.appendFile(file, content, 'utf8');
      else await fs.writeFile(file, content, { encoding: 'utf8', flag: overwrite ? 'w' : 'wx' });
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ToolError(`File ${shown} already exists and overwrite option was not passed.`);
      throw new ToolError(`cannot write "${shown}": ${(error as Error).message}`);
    }
    if (crewai) return `Content successfully written to ${shown}`;
    const bytes = Buffer.byteLength(content, 'utf8');
    return `${append ? 'Appended' : 'Wrote'} ${bytes} byte${bytes === 1 ? '' : 's'} to ${shown}`;
  },
});

/** The absolute file a call writes: the pinned path, else the model's, always inside `directory` when one is set. */
function targetFile(args: Record<string, unknown>, ctx: ToolContext, crewai: boolean): string {
  if (typeof ctx.config.path === 'string') return resolveInWorkspace(ctx.workspace, ctx.config.path);
  const name = (crewai ? args.filename : args.path) as string;
  if (!crewai && typeof ctx.config.directory !== 'string') return resolveInWorkspace(ctx.workspace, name);
  const root = resolveInWorkspace(ctx.workspace, typeof ctx.config.directory === 'string' ? ctx.config.directory : '.');
  const folder = crewai && typeof args.directory === 'string' && args.directory !== '' ? args.directory : '.';
  const within = resolveInWorkspace(ctx.workspace, path.resolve(root, folder, name));
  const rel = path.relative(root, within);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new ToolError(`"${path.join(folder, name)}" is outside the folder "${displayPath(ctx.workspace, root)}" this tool writes in`);
  }
  return within;
}

/** FileWriterTool's reading of true/false (also yes/no, on/off, 1/0). */
function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (['y', 'yes', 't', 'true', 'on', '1'].includes(text)) return true;
  if (['n', 'no', 'f', 'false', 'off', '0'].includes(text)) return false;
  throw new ToolError(`overwrite must be true or false, not ${JSON.stringify(value)}`);
}
