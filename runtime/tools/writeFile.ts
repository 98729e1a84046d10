import fs from 'node:fs/promises';
import path from 'node:path';
import { defineTool, ToolError } from './tool';
import { assertWritable } from './protectedFiles';
import { displayPath, resolveInWorkspace } from './workspacePath';

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Write text to a file in the workspace, creating missing folders. Replaces the file unless "append" is ' +
    'true, in which case the text is added at the end. Paths are relative to the workspace folder. ' +
    'Crewdeck\'s settings, crew and flow documents, the files they use, .git/ and .crewdeck/ cannot be written.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path of the file, relative to the workspace (e.g. "out/report.md").' },
      content: { type: 'string', description: 'The text to write.' },
      append: { type: 'boolean', description: 'Add to the end of the file instead of replacing it (default false).' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  cacheable: false,
  async execute(args, ctx) {
    const file = resolveInWorkspace(ctx.workspace, args.path as string);
    const shown = displayPath(ctx.workspace, file);
    assertWritable(ctx.workspace, file, { allowDocumentWrites: ctx.config.allowDocumentWrites === true });
    const content = args.content as string;
    const append = args.append === true;
    try {
      if ((await fs.stat(file).catch(() => undefined))?.isDirectory()) {
        throw new ToolError(`"${shown}" is a directory; give a file path`);
      }
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (append) await fs.appendFile(file, content, 'utf8');
      else await fs.writeFile(file, content, 'utf8');
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`cannot write "${shown}": ${(error as Error).message}`);
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    return `${append ? 'Appended' : 'Wrote'} ${bytes} byte${bytes === 1 ? '' : 's'} to ${shown}`;
  },
});
