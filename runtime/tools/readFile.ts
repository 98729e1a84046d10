import fs from 'node:fs/promises';
import { defineTool, ToolError } from './tool';
import { displayPath, resolveInWorkspace } from './workspacePath';

/** Files larger than this are cut, with a note saying so. */
export const READ_FILE_MAX_BYTES = 200 * 1024;

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file from the workspace and return its content. Paths are relative to the workspace ' +
    `folder. Files larger than ${READ_FILE_MAX_BYTES / 1024} kB are truncated.`,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path of the file, relative to the workspace (e.g. "notes/todo.md").' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  forConfig(config) {
    if (typeof config.path !== 'string') return { description: this.description, parameters: this.parameters };
    return {
      description: `Read the file "${config.path}" from the workspace and return its content (cut at ${READ_FILE_MAX_BYTES / 1024} kB). Takes no arguments.`,
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    };
  },
  async execute(args, ctx) {
    // A path pinned in the settings (CrewAI's FileReadTool(file_path=…)) is the only file it reads.
    const userPath = typeof ctx.config.path === 'string' ? ctx.config.path : (args.path as string);
    const file = resolveInWorkspace(ctx.workspace, userPath);
    const shown = displayPath(ctx.workspace, file);
    const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new ToolError(`file "${shown}" does not exist`);
      throw new ToolError(`cannot read "${shown}": ${error.message}`);
    });
    if (stat.isDirectory()) throw new ToolError(`"${shown}" is a directory, not a file; use list_directory to see what it contains`);

    const handle = await fs.open(file, 'r');
    try {
      const size = Math.min(stat.size, READ_FILE_MAX_BYTES);
      const buffer = Buffer.alloc(size);
      const { bytesRead } = await handle.read(buffer, 0, size, 0);
      const bytes = buffer.subarray(0, bytesRead);
      if (bytes.includes(0)) throw new ToolError(`"${shown}" looks like a binary file; read_file only returns text`);
      const text = bytes.toString('utf8');
      if (stat.size <= READ_FILE_MAX_BYTES) return text;
      return (
        `${text}\n\n[truncated: "${shown}" is ${stat.size} bytes; only the first ${READ_FILE_MAX_BYTES} bytes are shown]`
      );
    } finally {
      await handle.close();
    }
  },
});
