import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrewAiYamlInvalid } from '../../runtime/crewai/crewAiErrors';
import { importCrewAiProject } from '../../runtime/crewai/importProject';

/**
 * Review attacks (issue 13) on importing a downloaded CrewAI project (documents.importCrewai from the
 * renderer, or `crewdeck import`):
 * - `agents_config = '../../outside/agents.yaml'` in crew.py made the importer read a YAML file outside
 *   the project folder and copy it into the new crew (or echo it in a parse error);
 * - crew.py's `agents_config = …` line was found with `^\s*` under the m flag, quadratic in blank lines:
 *   40 KB of newlines took 7 s on the host's thread.
 */
const FIXTURE = join(__dirname, '..', 'fixtures', 'crewai', 'market_research');
let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

function project(edit: (crewPy: string) => string) {
  root = mkdtempSync(join(tmpdir(), 'crewdeck-crewai-attack-'));
  const dir = join(root, 'workspace', 'project');
  cpSync(FIXTURE, dir, { recursive: true });
  const crewPy = join(dir, 'src', 'market_research', 'crew.py');
  writeFileSync(crewPy, edit(readFileSync(crewPy, 'utf8')));
  const outside = join(root, 'outside');
  mkdirSync(outside);
  const agents = readFileSync(join(dir, 'src', 'market_research', 'config', 'agents.yaml'), 'utf8');
  writeFileSync(join(outside, 'agents.yaml'), agents.replace(/role: *>?\s*\n?\s*/g, (m) => `${m}OUTSIDE-CANARY `));
  return dir;
}

describe('importing a CrewAI project stays inside its folder and in linear time', () => {
  it('an agents_config path leading out of the project is not followed: the crew is refused, naming the path', async () => {
    const dir = project((src) => src.replace("agents_config = 'config/agents.yaml'", "agents_config = '../../../../outside/agents.yaml'"));
    const error = await importCrewAiProject(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CrewAiYamlInvalid);
    expect((error as Error).message).toMatch(/^\.\.\/\.\.\/outside\/agents\.yaml: a path leading out of the project folder/);
    expect(JSON.stringify(error)).not.toContain('OUTSIDE-CANARY');
    expect((error as Error).message).not.toContain('OUTSIDE-CANARY');
  });

  it('a config/agents.yaml that is a symbolic link out of the project is refused (issue 26), never read', async () => {
    const dir = project((src) => src);
    const config = join(dir, 'src', 'market_research', 'config', 'agents.yaml');
    rmSync(config);
    symlinkSync(join(root!, 'outside', 'agents.yaml'), config);
    const error = await importCrewAiProject(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CrewAiYamlInvalid);
    expect((error as CrewAiYamlInvalid).file).toBe('src/market_research/config/agents.yaml');
    expect((error as Error).message).toMatch(/a symbolic link leading out of the project folder \(to .*outside\/agents\.yaml\); the importer reads only files inside the project/);
    expect((error as Error).message).not.toContain('OUTSIDE-CANARY');
  });

  it('a YAML alias bomb in tasks.yaml is refused naming the file, without expanding it (issue 26)', async () => {
    const dir = project((src) => src);
    const lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i += 1) lol.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    writeFileSync(join(dir, 'src', 'market_research', 'config', 'tasks.yaml'), `${lol.join('\n')}\n`);
    const error = await importCrewAiProject(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CrewAiYamlInvalid);
    expect((error as CrewAiYamlInvalid).file).toBe('src/market_research/config/tasks.yaml');
    expect((error as Error).message).toMatch(/expands too far through its aliases/);
  });

  // How long these take is measured in bench/importer.bench.ts (linear in the file's size); a test asserts what comes out.
  it('a crew.py padded with blank lines imports whole', async () => {
    // Ending in a line that is neither an assignment nor an import, so every line start is tried.
    const dir = project((src) => `${src}\n${'\n'.repeat(100_000)}x = 1\n`);
    const result = await importCrewAiProject(dir);
    expect(result.crews[0]!.agents.length).toBeGreaterThan(0);
    expect(result.unmapped.filter((u) => u.item === 'Python syntax')).toEqual([]);
  });

  it('a crew.py of 20,000 unclosed calls is reported as a syntax error with its line and column', async () => {
    // Each `x = f(` used to scan the rest of the file for its closing bracket, and findCall then tried
    // every later `f(` the same way: over four minutes for this file. Brackets are now paired in one pass.
    const dir = project((src) => src.replace('@CrewBase', `${'x = f(\n'.repeat(20_000)}@CrewBase`).replace(/(class \w+\(?[^\n]*:\n)/, `$1${'    y = g(\n'.repeat(20_000)}`));
    const outcome = await importCrewAiProject(dir).then(
      (result) => result.unmapped.find((u) => u.item === 'Python syntax')?.path,
      (error: Error) => error.message,
    );
    // Either the import names where the syntax breaks, or it fails naming the broken crew.py: never a hang or a crash.
    expect(outcome).toMatch(/crew\.py(:\d+:\d+)?/);
  });
});

/**
 * The same for a CrewAI Flow's main.py (runtime/crewai/flowExpression.ts): its expression parser and
 * the walks over its tree recurse, so 5,000 nested brackets or a 20,000-term sum overflowed the stack
 * (a RangeError out of the import); and a file write may name a path outside the workspace.
 */
const FLOW_FIXTURE = join(__dirname, '..', 'fixtures', 'crewai', 'flows', 'self_evaluation_loop');
function flowProject(edit: (mainPy: string) => string) {
  root = mkdtempSync(join(tmpdir(), 'crewdeck-crewai-flow-attack-'));
  const dir = join(root, 'project');
  cpSync(FLOW_FIXTURE, dir, { recursive: true });
  const mainPy = join(dir, 'src', 'self_evaluation_loop', 'main.py');
  writeFileSync(mainPy, edit(readFileSync(mainPy, 'utf8')));
  return dir;
}

describe('importing a CrewAI Flow from a downloaded main.py', () => {
  it.each([
    ['5,000 nested brackets', '(('.repeat(2500) + '1' + '))'.repeat(2500)],
    ['a sum of 20,000 terms', Array(20_000).fill('1').join(' + ')],
  ])('%s in a state assignment become a stub and an unmapped item, not a stack overflow', async (_what, expression) => {
    const dir = flowProject((src) => src.replace('self.state.retry_count += 1', `self.state.retry_count = ${expression}`));
    const result = await importCrewAiProject(dir);
    expect(result.flow?.methods.length).toBeGreaterThan(0);
    expect(result.unmapped.map((u) => u.why).join('\n')).toMatch(/tokens|nested/);
  });

  it('a file write outside the workspace is refused, naming the method field and the path', async () => {
    const dir = flowProject((src) => src.replace('open("post.md", "w")', 'open("../../outside.md", "w")'));
    await expect(importCrewAiProject(dir)).rejects.toThrow(/outputFile: "\.\.\/\.\.\/outside\.md" leaves the workspace/);
  });
});
