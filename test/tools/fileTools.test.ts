import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_DIRECTORY_MAX_ENTRIES, listDirectoryTool } from '../../runtime/tools/listDirectory';
import { READ_FILE_MAX_BYTES, readFileTool } from '../../runtime/tools/readFile';
import type { ToolContext } from '../../runtime/tools/tool';
import { writeFileTool } from '../../runtime/tools/writeFile';

let workspace: string;
let ctx: ToolContext;

beforeEach(async () => {
  workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'crewdeck-files-'));
  ctx = { workspace, signal: new AbortController().signal, agentRole: 'Writer', config: {} };
});
afterEach(async () => {
  await fs.rm(workspace, { recursive: true, force: true });
});

describe('read_file', () => {
  it('returns the text of a file', async () => {
    await fs.writeFile(path.join(workspace, 'notes.md'), 'héllo\nworld');
    expect(await readFileTool.execute({ path: 'notes.md' }, ctx)).toBe('héllo\nworld');
  });

  it('names the path when the file is missing', async () => {
    await expect(readFileTool.execute({ path: 'docs/missing.txt' }, ctx)).rejects.toThrow(
      'file "docs/missing.txt" does not exist',
    );
  });

  it('truncates files over 200 kB with a note', async () => {
    const big = 'a'.repeat(READ_FILE_MAX_BYTES + 5000);
    await fs.writeFile(path.join(workspace, 'big.txt'), big);
    const out = await readFileTool.execute({ path: 'big.txt' }, ctx);
    expect(out.startsWith('a'.repeat(READ_FILE_MAX_BYTES) + '\n\n[truncated:')).toBe(true);
    expect(out).toContain(`is ${READ_FILE_MAX_BYTES + 5000} bytes`);
  });

  it('refuses a directory and paths outside the workspace', async () => {
    await fs.mkdir(path.join(workspace, 'dir'));
    await expect(readFileTool.execute({ path: 'dir' }, ctx)).rejects.toThrow(/is a directory/);
    await expect(readFileTool.execute({ path: '../x' }, ctx)).rejects.toThrow(
      `path "../x" is outside the workspace; file tools can only use files under ${path.resolve(workspace)}`,
    );
  });

  it('refuses to read through a symbolic link that leaves the workspace', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'crewdeck-out-'));
    try {
      await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'innocent.txt'));
      await expect(readFileTool.execute({ path: 'innocent.txt' }, ctx)).rejects.toThrow(/symbolic link/);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});

describe('write_file', () => {
  it('creates parent folders and reports the byte count', async () => {
    const out = await writeFileTool.execute({ path: 'out/deep/report.md', content: 'héllo' }, ctx);
    expect(out).toBe('Wrote 6 bytes to out/deep/report.md');
    expect(await fs.readFile(path.join(workspace, 'out/deep/report.md'), 'utf8')).toBe('héllo');
  });

  it('replaces by default and appends when asked', async () => {
    await writeFileTool.execute({ path: 'log.txt', content: 'one\n' }, ctx);
    await writeFileTool.execute({ path: 'log.txt', content: 'two\n' }, ctx);
    expect(await writeFileTool.execute({ path: 'log.txt', content: 'three\n', append: true }, ctx)).toBe(
      'Appended 6 bytes to log.txt',
    );
    expect(await fs.readFile(path.join(workspace, 'log.txt'), 'utf8')).toBe('two\nthree\n');
  });

  it('is not cacheable and cannot write outside the workspace', async () => {
    expect(writeFileTool.cacheable).toBe(false);
    await expect(writeFileTool.execute({ path: '../escape.txt', content: 'x' }, ctx)).rejects.toThrow(/outside the workspace/);
    await expect(fs.access(path.join(workspace, '..', 'escape.txt'))).rejects.toThrow();
  });

  it('does not follow a dangling symbolic link out of the workspace', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'crewdeck-out-'));
    try {
      await fs.symlink(path.join(outside, 'planted.txt'), path.join(workspace, 'trap.txt'));
      await expect(writeFileTool.execute({ path: 'trap.txt', content: 'x' }, ctx)).rejects.toThrow(/symbolic link/);
      await expect(fs.access(path.join(outside, 'planted.txt'))).rejects.toThrow();
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});

describe('list_directory', () => {
  beforeEach(async () => {
    await fs.mkdir(path.join(workspace, 'src/lib'), { recursive: true });
    await fs.mkdir(path.join(workspace, 'node_modules/pkg'), { recursive: true });
    await fs.mkdir(path.join(workspace, '.git'));
    await fs.mkdir(path.join(workspace, '.crewdeck'));
    await fs.writeFile(path.join(workspace, 'b.txt'), '');
    await fs.writeFile(path.join(workspace, 'a.txt'), '');
    await fs.writeFile(path.join(workspace, 'src/lib/x.ts'), '');
    await fs.writeFile(path.join(workspace, 'node_modules/pkg/index.js'), '');
  });

  it('lists one level, sorted, folders with a trailing slash (default path ".")', async () => {
    expect(await listDirectoryTool.execute({}, ctx)).toBe(
      ['.crewdeck/', '.git/', 'a.txt', 'b.txt', 'node_modules/', 'src/'].join('\n'),
    );
  });

  it('lists recursively without entering .git, node_modules and .crewdeck', async () => {
    expect(await listDirectoryTool.execute({ recursive: true }, ctx)).toBe(
      ['.crewdeck/', '.git/', 'a.txt', 'b.txt', 'node_modules/', 'src/', 'src/lib/', 'src/lib/x.ts'].join('\n'),
    );
  });

  it('lists a sub-folder relative to itself', async () => {
    expect(await listDirectoryTool.execute({ path: 'src', recursive: true }, ctx)).toBe('lib/\nlib/x.ts');
  });

  it(`caps the listing at ${LIST_DIRECTORY_MAX_ENTRIES} entries with a note`, async () => {
    const many = path.join(workspace, 'many');
    await fs.mkdir(many);
    await Promise.all(
      Array.from({ length: LIST_DIRECTORY_MAX_ENTRIES + 5 }, (_, i) => fs.writeFile(path.join(many, `f${String(i).padStart(4, '0')}`), '')),
    );
    const lines = (await listDirectoryTool.execute({ path: 'many' }, ctx)).split('\n');
    expect(lines).toHaveLength(LIST_DIRECTORY_MAX_ENTRIES + 1);
    expect(lines[0]).toBe('f0000');
    expect(lines.at(-1)).toBe(`[listing stopped at ${LIST_DIRECTORY_MAX_ENTRIES} entries]`);
  });

  it('reports missing folders, files and escapes as errors', async () => {
    await expect(listDirectoryTool.execute({ path: 'nope' }, ctx)).rejects.toThrow('folder "nope" does not exist');
    await expect(listDirectoryTool.execute({ path: 'a.txt' }, ctx)).rejects.toThrow(/is a file/);
    await expect(listDirectoryTool.execute({ path: '..' }, ctx)).rejects.toThrow(/outside the workspace/);
  });
});
