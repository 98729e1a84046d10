import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crew, ofType, runCrew, scripted, tempWorkspace } from '../support/crewHarness';
import { writeFileTool } from '../../runtime/tools/writeFile';
import type { ToolContext } from '../../runtime/tools/tool';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A crew whose one agent calls the given tools in order, then answers with the last observation. */
function callingCrew(tools: unknown[], calls: { name: string; arguments: Record<string, unknown> }[]) {
  return crew({
    agents: [
      {
        id: 'a',
        role: 'Reader',
        goal: 'read',
        tools,
        llm: scripted({ sequence: [...calls.map((c) => ({ toolCalls: [c] })), 'Final answer: done'] }),
      },
    ],
    tasks: [{ id: 't', description: 'Read the files', expectedOutput: 'their text', agentId: 'a' }],
  });
}

describe('tools with a pinned path, a name and a description of their own', () => {
  it('read_file pinned to a file takes no path, and the model sees the ref name and description', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    await fs.writeFile(path.join(ws.dir, 'jobs.md'), '# Jobs\nSenior baker, Lyon');
    await fs.writeFile(path.join(ws.dir, 'other.md'), 'not this one');
    const doc = callingCrew(
      [{ tool: 'read_file', config: { path: 'jobs.md' }, name: 'Read the job posting', description: 'Reads the job posting.' }],
      [{ name: 'Read the job posting', arguments: {} }],
    );
    const { result, events } = await runCrew(doc, { workspace: ws });
    expect(result.status).toBe('completed');
    const offered = ofType(events, 'llm.started')[0]!.tools;
    expect(offered).toEqual([{ name: 'Read the job posting', description: 'Reads the job posting.', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false } }]);
    const started = ofType(events, 'tool.started')[0]!;
    expect(started).toMatchObject({ tool: 'Read the job posting', toolId: 'read_file' });
    expect(ofType(events, 'tool.completed')[0]!.result).toBe('# Jobs\nSenior baker, Lyon');
  });

  it('a pinned read_file refuses a model-given path as an unexpected argument', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    await fs.writeFile(path.join(ws.dir, 'jobs.md'), 'jobs');
    const doc = callingCrew([{ tool: 'read_file', config: { path: 'jobs.md' } }], [{ name: 'read_file', arguments: { path: 'other.md' } }]);
    const { events } = await runCrew(doc, { workspace: ws });
    expect(ofType(events, 'tool.failed')[0]!.error).toBe('invalid arguments: unexpected property "path"');
  });

  it('two read_file tools pinned to two files are offered as read_file and read_file_2', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    await fs.writeFile(path.join(ws.dir, 'a.md'), 'AAA');
    await fs.writeFile(path.join(ws.dir, 'b.md'), 'BBB');
    const doc = callingCrew(
      [
        { tool: 'read_file', config: { path: 'a.md' } },
        { tool: 'read_file', config: { path: 'b.md' } },
      ],
      [
        { name: 'read_file', arguments: {} },
        { name: 'read_file_2', arguments: {} },
      ],
    );
    const { events } = await runCrew(doc, { workspace: ws });
    expect(ofType(events, 'llm.started')[0]!.tools.map((t) => [t.name, t.description])).toEqual([
      ['read_file', expect.stringContaining('"a.md"')],
      ['read_file_2', expect.stringContaining('"b.md"')],
    ]);
    expect(ofType(events, 'tool.completed').map((e) => [e.tool, e.result])).toEqual([
      ['read_file', 'AAA'],
      ['read_file_2', 'BBB'],
    ]);
  });

  it('list_directory pinned to a folder lists it recursively, as DirectoryReadTool does', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    await fs.mkdir(path.join(ws.dir, 'resumes/2024'), { recursive: true });
    await fs.writeFile(path.join(ws.dir, 'resumes/2024/ana.md'), 'x');
    await fs.writeFile(path.join(ws.dir, 'top.md'), 'x');
    const doc = callingCrew([{ tool: 'list_directory', config: { path: 'resumes', recursive: true } }], [{ name: 'list_directory', arguments: {} }]);
    const { events } = await runCrew(doc, { workspace: ws });
    expect(ofType(events, 'llm.started')[0]!.tools[0]!.parameters).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
    expect(ofType(events, 'tool.completed')[0]!.result).toBe('2024/\n2024/ana.md');
  });
});

describe('write_file with FileWriterTool arguments', () => {
  const ctxFor = (workspace: string, config: Record<string, unknown>): ToolContext => ({ workspace, signal: new AbortController().signal, agentRole: 'Writer', config });

  it('writes filename inside directory and keeps an existing file unless overwrite is true', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const ctx = ctxFor(ws.dir, { argumentStyle: 'crewai' });
    expect(await writeFileTool.execute({ filename: 'report.md', content: 'v1', directory: 'out' }, ctx)).toBe('Content successfully written to out/report.md');
    await expect(writeFileTool.execute({ filename: 'report.md', content: 'v2', directory: 'out' }, ctx)).rejects.toThrow('File out/report.md already exists and overwrite option was not passed.');
    expect(await fs.readFile(path.join(ws.dir, 'out/report.md'), 'utf8')).toBe('v1');
    await writeFileTool.execute({ filename: 'report.md', content: 'v2', directory: 'out', overwrite: 'yes' }, ctx);
    expect(await fs.readFile(path.join(ws.dir, 'out/report.md'), 'utf8')).toBe('v2');
  });

  it('keeps every write inside the pinned directory (base_dir)', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const ctx = ctxFor(ws.dir, { argumentStyle: 'crewai', directory: 'out' });
    expect(await writeFileTool.execute({ filename: 'a.md', content: 'x', directory: 'drafts' }, ctx)).toBe('Content successfully written to out/drafts/a.md');
    await expect(writeFileTool.execute({ filename: '../escape.md', content: 'x' }, ctx)).rejects.toThrow('"../escape.md" is outside the folder "out" this tool writes in');
    await expect(fs.stat(path.join(ws.dir, 'escape.md'))).rejects.toThrow();
  });

  it('offers FileWriterTool\'s parameters to the model', () => {
    const { parameters } = writeFileTool.forConfig!.call(writeFileTool, { argumentStyle: 'crewai' });
    expect(parameters).toMatchObject({ required: ['filename', 'content'], properties: { filename: {}, content: {}, directory: {}, overwrite: {} } });
  });

  it('a pinned file takes only the content', async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.remove);
    const ctx = ctxFor(ws.dir, { path: 'out/summary.md' });
    expect(writeFileTool.forConfig!.call(writeFileTool, { path: 'out/summary.md' }).parameters).toMatchObject({ required: ['content'] });
    await writeFileTool.execute({ content: 'summary' }, ctx);
    expect(await fs.readFile(path.join(ws.dir, 'out/summary.md'), 'utf8')).toBe('summary');
  });
});
