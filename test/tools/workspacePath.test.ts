import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../runtime/tools/tool';
import { displayPath, resolveInWorkspace } from '../../runtime/tools/workspacePath';

let root: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'crewdeck-ws-')));
  workspace = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(path.join(workspace, 'sub'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function refusal(userPath: string): ToolError {
  try {
    resolveInWorkspace(workspace, userPath);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  }
  throw new Error(`expected ${userPath} to be refused`);
}

describe('resolveInWorkspace', () => {
  it('resolves relative paths against the workspace', () => {
    expect(resolveInWorkspace(workspace, 'sub/a.txt')).toBe(path.join(workspace, 'sub', 'a.txt'));
    expect(resolveInWorkspace(workspace, '.')).toBe(workspace);
    expect(resolveInWorkspace(workspace, 'sub/../b.txt')).toBe(path.join(workspace, 'b.txt'));
  });

  it('accepts absolute paths inside the workspace', () => {
    const inside = path.join(workspace, 'sub', 'new', 'file.md');
    expect(resolveInWorkspace(workspace, inside)).toBe(inside);
  });

  it('refuses ../ escapes with a clear message', () => {
    const error = refusal('../outside/secret.txt');
    expect(error.message).toBe(
      `path "../outside/secret.txt" is outside the workspace; file tools can only use files under ${workspace}`,
    );
    expect(refusal('sub/../../x').message).toContain('is outside the workspace');
  });

  it('refuses absolute paths outside the workspace, including a sibling with the same prefix', async () => {
    expect(refusal('/etc/passwd').message).toContain('"/etc/passwd" is outside the workspace');
    await fs.mkdir(`${workspace}-evil`);
    expect(refusal(`${workspace}-evil/x`).message).toContain('is outside the workspace');
  });

  it('refuses a symbolic link that points outside, and paths through it', async () => {
    await fs.symlink(outside, path.join(workspace, 'link'));
    expect(refusal('link').message).toContain('outside the workspace through a symbolic link');
    expect(refusal('link/secret.txt').message).toContain(`file tools can only use files under ${workspace}`);
    expect(refusal('link/not-yet/created.txt').message).toContain('symbolic link');
  });

  it('refuses a dangling symbolic link whose target would be outside', async () => {
    await fs.symlink(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling'));
    expect(refusal('dangling').message).toContain('symbolic link');
  });

  it('allows symbolic links that stay inside the workspace', async () => {
    await fs.symlink(path.join(workspace, 'sub'), path.join(workspace, 'alias'));
    expect(resolveInWorkspace(workspace, 'alias/x.txt')).toBe(path.join(workspace, 'alias', 'x.txt'));
  });

  it('works when the workspace itself is reached through a symbolic link', async () => {
    const viaLink = path.join(root, 'ws-link');
    await fs.symlink(workspace, viaLink);
    expect(resolveInWorkspace(viaLink, 'sub/a.txt')).toBe(path.join(viaLink, 'sub', 'a.txt'));
    expect(() => resolveInWorkspace(viaLink, '../outside/secret.txt')).toThrow(/outside the workspace/);
  });

  it('displays paths relative to the workspace', () => {
    expect(displayPath(workspace, path.join(workspace, 'sub', 'a.txt'))).toBe('sub/a.txt');
    expect(displayPath(workspace, workspace)).toBe('.');
  });
});
