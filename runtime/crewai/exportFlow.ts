import { redactKnown } from '../redactSecrets';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { CrewDocument } from '../../shared/model/crew';
import type { FlowBody, FlowCondition, FlowDocument, FlowMethod, FlowPredicate } from '../../shared/model/flow';
import { CrewAiExportFailed } from './crewAiErrors';
import { oneLine } from './export/safeText';
import { exportCrewAiCrews, type CrewAiExport, type ExportOptions } from './exportProject';
import { modelToCrewAi } from './modelNames';
import { pyQuote } from './pythonSource';
import type { UnmappedItem } from './unmapped';

/**
 * A flow as a CrewAI project: the crews its methods run (crews/<crew>/crew.py each, as for several
 * crews) and a main.py with a `Flow[State]` class — @start/@listen/@router with or_/and_, crew kickoffs
 * with inputs from the state, asyncio.gather (bounded by a semaphore) for for_each, set_state as state
 * assignments, rules as if-chains, outputFile as a file write. What CrewAI cannot hold (scripts, feedback
 * learning…) is listed in the summary and left as a commented stub. `crews` maps each crew body's
 * `file` to its document.
 */
export function exportCrewAiFlow(flow: FlowDocument, crews: Map<string, CrewDocument>, dir: string, options: ExportOptions = {}): CrewAiExport {
  const root = resolve(dir);
  if (existsSync(root)) {
    if (!statSync(root).isDirectory()) throw new CrewAiExportFailed(`${root} is a file; give a folder to export into`);
    if (!options.overwrite && readdirSync(root).length > 0) throw new CrewAiExportFailed(`${root} is not empty; choose an empty or new folder`);
  }
  const docs = [...new Map([...crews.values()].map((d) => [d.id, d])).values()];
  const pkgRaw = flow.id.toLowerCase().replace(/[^a-z0-9_]/g, '_').replace(/^_+|_+$/g, '');
  const pkg = /^[a-z]/.test(pkgRaw) ? pkgRaw : `flow_${pkgRaw}`;
  // The crews go where a several-crew export puts them; the flow's main.py replaces that main.py.
  const base = docs.length > 0 ? exportCrewAiCrews(docs, root, { ...options, name: pkg, crewsLayout: true }) : { files: [], summary: [], packageName: pkg };
  const writer = new FlowWriter(flow, crews, pkg);
  const main = writer.mainPy();
  const mainPath = `src/${pkg}/main.py`;
  const full = join(root, ...mainPath.split('/'));
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, redactKnown(main));
  if (docs.length === 0) writeFileSync(join(root, 'pyproject.toml'), `[project]\nname = ${JSON.stringify(flow.id)}\nversion = "0.1.0"\nrequires-python = ">=3.10,<3.14"\ndependencies = ["crewai[tools]>=0.150.0"]\n\n[tool.crewai]\ntype = "flow"\n`);
  const files = [...new Set([...base.files, relative(root, full).split(sep).join('/'), ...(docs.length === 0 ? ['pyproject.toml'] : [])])];
  return { files, summary: [...base.summary, ...writer.summary], packageName: pkg };
}

const className = (id: string) => id.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('') || 'Generated';

class FlowWriter {
  readonly summary: UnmappedItem[] = [];
  private readonly imports = new Set<string>();

  constructor(
    private readonly flow: FlowDocument,
    private readonly crews: Map<string, CrewDocument>,
    private readonly pkg: string,
  ) {}

  private skip(path: string, item: string, why: string): void {
    this.summary.push({ path: `${this.flow.id}: ${path}`, item, why });
  }

  mainPy(): string {
    const { flow } = this;
    const stateName = `${className(flow.id)}State`;
    const flowName = `${className(flow.id)}Flow`;
    const methods = flow.methods.flatMap((m, i) => ['', ...this.method(m, i)]);
    const crewImports = [...this.crews.entries()].map(([, doc]) => {
      const cls = className(doc.id.toLowerCase().replace(/[^a-z0-9_]/g, '_'));
      const module = `${this.pkg}.crews.${doc.id.toLowerCase().replace(/[^a-z0-9_]/g, '_')}.crew`;
      return `from ${module} import ${cls}`;
    });
    const flowImports = ['Flow', 'listen', 'start', ...(flow.methods.some((m) => m.routes) ? ['router'] : []), ...[...this.imports].filter((i) => i === 'or_' || i === 'and_')].sort();
    return [
      '#!/usr/bin/env python',
      `"""${oneLine(flow.name).replace(/\\/g, '\\\\').replace(/"/g, '\\"')} — a CrewAI Flow exported by Crewdeck."""`,
      ...(this.imports.has('asyncio') ? ['import asyncio'] : []),
      ...(methods.some((l) => l.includes('json.loads(')) ? ['import json'] : []),
      'from typing import Any, List, Optional',
      '',
      `from crewai.flow.flow import ${flowImports.join(', ')}`,
      ...(flow.persist ? ['from crewai.flow.persistence import persist'] : []),
      ...(this.imports.has('LLM') || this.imports.has('Agent') ? [`from crewai import ${[...this.imports].filter((i) => i === 'LLM' || i === 'Agent').sort().join(', ')}`] : []),
      ...(this.imports.has('human_feedback') ? ['from crewai.flow.human_feedback import human_feedback'] : []),
      'from pydantic import BaseModel',
      '',
      ...[...new Set(crewImports)],
      '',
      '',
      `class ${stateName}(BaseModel):`,
      ...this.stateFields(),
      '',
      '',
      ...(flow.persist ? ['@persist()'] : []),
      `class ${flowName}(Flow[${stateName}]):`,
      `    ${pyDocstring(flow.name)}`,
      ...methods,
      '',
      '',
      'def kickoff():',
      `    ${flowName}().kickoff()`,
      '',
      '',
      'if __name__ == "__main__":',
      '    kickoff()',
      '',
    ].join('\n');
  }

  private stateFields(): string[] {
    const initial = this.flow.state.initial;
    const inputs = this.flow.inputs ?? [];
    const properties = (this.flow.state.schema?.properties ?? {}) as Record<string, unknown>;
    const names = [...new Set([...Object.keys(initial), ...Object.keys(properties), ...inputs.map((i) => i.name), ...this.flow.methods.flatMap((m) => (m.body.type === 'for_each' ? [m.body.into] : m.body.type === 'set_state' ? Object.keys(m.body.set) : []))])];
    if (names.length === 0) return ['    pass'];
    return names.map((name) => {
      const value = name in initial ? initial[name] : inputs.find((i) => i.name === name)?.default;
      const type = schemaType(properties[name]) ?? pyType(value);
      return `    ${name}: ${type} = ${value === undefined ? 'None' : pyValue(value)}`;
    });
  }

  private method(m: FlowMethod, i: number): string[] {
    const path = `methods.${i}`;
    const decorators: string[] = [];
    const trigger = 'listen' in m.trigger ? m.trigger.listen : undefined;
    const isStart = 'start' in m.trigger;
    const feedback = m.body.type === 'human_feedback';
    // A start that also listens is CrewAI's @start("label"); a feedback step routes through @human_feedback(emit=…).
    if (isStart) decorators.push(trigger === undefined ? '@start()' : `@start(${this.condition(trigger)})`);
    else if (m.routes && !feedback) decorators.push(`@router(${this.condition(trigger!)})`);
    else decorators.push(`@listen(${this.condition(trigger!)})`);
    if (m.routes && isStart && !feedback) this.skip(`${path}.routes`, m.routes.join(', '), 'a CrewAI router must listen to something; this start router is written as a start method');
    if (m.body.type === 'human_feedback') decorators.push(...this.feedbackDecorator(m.body, m, `${path}.body`));
    const { lines: body, ends } = this.body(m.body, `${path}.body`, m);
    const isAsync = m.body.type === 'for_each';
    const docstring = m.description ? [pyDocstring(m.description)] : [];
    const lines = [...decorators.map((d) => `    ${d}`), `    ${isAsync ? 'async ' : ''}def ${m.name}(self, input=None):`, ...[...docstring, ...body].map((l) => `        ${l}`)];
    if (m.outputFile) {
      lines.push(`        with open(${this.fstring(m.outputFile, `${path}.outputFile`)}, "w") as f:`, `            f.write(str(${ends === 'input' ? 'input' : 'output'}))`);
    }
    if (ends !== 'returns') lines.push(`        return ${ends}`);
    return lines.map((l) => l.trimEnd());
  }

  /** `@human_feedback(message=…, emit=[…], default_outcome=…, llm=…)`. */
  private feedbackDecorator(body: Extract<FlowBody, { type: 'human_feedback' }>, m: FlowMethod, path: string): string[] {
    this.imports.add('human_feedback');
    const outcomes = body.outcomes ?? m.routes;
    const args = [`message=${pyQuote(body.message)}`];
    if (outcomes) args.push(`emit=[${outcomes.map(pyQuote).join(', ')}]`);
    if (body.defaultOutcome) args.push(`default_outcome=${pyQuote(body.defaultOutcome)}`);
    if (body.llm !== undefined) {
      const model = modelToCrewAi(body.llm);
      if (model.ok) args.push(`llm=${pyQuote(model.model)}`);
      else this.skip(`${path}.llm`, JSON.stringify(body.llm), "this model cannot be named in CrewAI; CrewAI's default classifies the feedback");
    }
    if (body.learn) this.skip(`${path}.learn`, 'learn', 'lessons from feedback are a Crewdeck feature; CrewAI asks without them');
    return [`@human_feedback(${args.join(', ')})`];
  }

  private condition(c: FlowCondition): string {
    if (typeof c === 'string') return c;
    if ('route' in c) return pyQuote(c.route);
    const key = 'or' in c ? 'or_' : 'and_';
    this.imports.add(key);
    return `${key}(${('or' in c ? c.or : c.and).map((x) => this.condition(x)).join(', ')})`;
  }

  /**
   * Body lines, and what the method returns after them: `output` (the lines set it), `input` (the body
   * passes its input on) or `returns` (the lines return, as a router's if-chain does).
   */
  private body(body: FlowBody, path: string, m: FlowMethod): { lines: string[]; ends: 'output' | 'input' | 'returns' } {
    switch (body.type) {
      case 'crew':
      case 'agent':
      case 'llm':
        return { lines: this.itemBody(body, path), ends: 'output' };
      case 'for_each': {
        this.imports.add('asyncio');
        const items = /^\{state\.([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(body.items.trim());
        if (!items) this.skip(`${path}.items`, body.items, 'only a state list ({state.x}) is written as the list to go through');
        const inner = this.itemBody(body.body, `${path}.body`, true);
        return {
          lines: [
            `limit = asyncio.Semaphore(${body.concurrency})`,
            '',
            'async def one(index, item):',
            '    async with limit:',
            ...inner.map((l) => `        ${l}`),
            '        return output',
            '',
            `results = await asyncio.gather(*[one(index, item) for index, item in enumerate(self.state.${items?.[1] ?? 'items'})])`,
            `self.state.${body.into} = list(results)`,
            'output = results',
          ],
          ends: 'output',
        };
      }
      case 'set_state':
        return { lines: Object.entries(body.set).map(([field, template]) => `self.state.${field} = ${this.fstring(template, `${path}.set.${field}`)}`), ends: 'input' };
      case 'rules': {
        const lines: string[] = [];
        body.rules.forEach((r, j) => lines.push(`${j === 0 ? 'if' : 'elif'} ${this.predicate(r.when, `${path}.rules.${j}`)}:`, `    return ${pyQuote(r.route)}`));
        lines.push(`return ${pyQuote(body.default)}`);
        return { lines, ends: 'returns' };
      }
      case 'human_feedback':
        return { lines: [], ends: 'input' };
      case 'script': {
        // A script read from CrewAI Python carries that Python: it is written back as it was.
        const python = body.stub ? body.stub.python.split('\n') : body.python?.split('\n');
        if (python && !body.stub) {
          const ends = m.routes ? 'returns' : /^output = /.test(python[python.length - 1] ?? '') ? 'output' : 'input';
          return { lines: python, ends };
        }
        if (python && body.stub) {
          this.skip(path, `stub (${body.stub.file}:${body.stub.line})`, 'the CrewAI Python this stub stands for is written back as it was imported');
          const lines = python.slice(1);
          const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length));
          return { lines: lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)), ends: 'returns' };
        }
        this.skip(path, 'script', 'a Crewdeck script (JavaScript) is left as a comment; rewrite it in Python');
        const comments = body.code.split('\n').map((l) => `# ${oneLine(l)}`);
        const route = m.routes?.[0];
        return route !== undefined ? { lines: [...comments, `return ${pyQuote(route)}`], ends: 'returns' } : { lines: [...comments, 'output = input'], ends: 'output' };
      }
    }
  }

  /** A crew, agent or llm body: lines that set `output` (inside a for_each, `item` and `index` are in scope). */
  private itemBody(body: Extract<FlowBody, { type: 'crew' | 'agent' | 'llm' }>, path: string, inItem = false): string[] {
    if (body.type === 'crew') {
      const doc = this.crews.get(body.file);
      if (!doc) {
        this.skip(`${path}.file`, body.file, 'the crew file could not be read, so no crew class was written for it');
        return ['output = None  # the crew could not be exported'];
      }
      const cls = className(doc.id.toLowerCase().replace(/[^a-z0-9_]/g, '_'));
      const inputs = Object.entries(body.inputs ?? {}).map(([k, v]) => `${pyQuote(k)}: ${this.fstring(v, `${path}.inputs.${k}`)}`);
      return [`result = ${inItem ? 'await ' : ''}${cls}().crew().${inItem ? 'kickoff_async' : 'kickoff'}(inputs={${inputs.join(', ')}})`, 'output = result.raw'];
    }
    if (body.type === 'llm') {
      this.imports.add('LLM');
      const model = body.llm !== undefined ? modelToCrewAi(body.llm) : undefined;
      if (body.outputSchema) this.skip(`${path}.outputSchema`, JSON.stringify(body.outputSchema).slice(0, 120), 'CrewAI LLM.call has no output schema; the reply is used as text');
      const call = `LLM(model=${pyQuote(model?.ok ? model.model : 'gpt-4o-mini')}).call(${this.fstring(body.prompt, `${path}.prompt`)})`;
      return inItem ? [`output = await asyncio.to_thread(lambda: ${call})`] : [`output = ${call}`];
    }
    this.imports.add('Agent');
    const a = body.agent;
    const agent = `Agent(role=${pyQuote(a.role)}, goal=${pyQuote(a.goal)}, backstory=${pyQuote(a.backstory)})`;
    if (a.tools.length > 0) this.skip(`${path}.agent.tools`, a.tools.map((t) => t.tool).join(', '), 'tools of a flow agent are not exported; add them to the Agent(...) by hand');
    const kick = `${agent}.kickoff(${this.fstring(body.prompt, `${path}.prompt`)})`;
    return inItem ? [`result = await asyncio.to_thread(lambda: ${kick})`, 'output = result.raw'] : [`result = ${kick}`, 'output = result.raw'];
  }

  /** A template as a Python f-string: {state.x} → self.state.x, {item.k} → item['k']; other braces doubled. */
  private fstring(template: string, _path: string): string {
    const parts: string[] = [];
    let last = 0;
    for (const m of template.matchAll(/\{(state(?:\.[A-Za-z0-9_-]+)+|input(?:\.[A-Za-z0-9_-]+)*|item(?:\.[A-Za-z0-9_-]+)*|index)\}/g)) {
      parts.push(escapeBraces(template.slice(last, m.index)));
      const [head, ...rest] = m[1]!.split('.');
      const keys = (from: string[]) => from.map((k) => `[${`'${k}'`}]`).join('');
      if (head === 'state') parts.push(`{self.state.${rest[0]}${keys(rest.slice(1))}}`);
      else if (head === 'item') parts.push(`{item${keys(rest)}}`);
      else if (head === 'index') parts.push('{index}');
      // A field of the input reads the input as JSON (CrewAI passes the previous method's output).
      else parts.push(rest.length > 0 ? `{json.loads(input)${keys(rest)}}` : '{input}');
      last = m.index + m[0].length;
    }
    parts.push(escapeBraces(template.slice(last)));
    const body = parts.join('');
    return /\{[^{]/.test(body.replace(/\{\{/g, '')) ? `f${pyQuote(body)}` : pyQuote(template);
  }

  private predicate(p: FlowPredicate, path: string): string {
    const target = p.path.startsWith('state.') ? `self.state.${p.path.split('.')[1]}${p.path.split('.').slice(2).map((k) => `['${k}']`).join('')}` : 'input';
    if (p.path.startsWith('input.')) this.skip(path, p.path, 'a field of the input is tested as the whole input');
    const v = pyValue(p.value);
    switch (p.op) {
      case 'eq': return `${target} == ${v}`;
      case 'neq': return `${target} != ${v}`;
      case 'gt': return `${target} > ${v}`;
      case 'gte': return `${target} >= ${v}`;
      case 'lt': return `${target} < ${v}`;
      case 'lte': return `${target} <= ${v}`;
      case 'contains': return `${v} in str(${target})`;
      case 'not_contains': return `${v} not in str(${target})`;
      case 'exists': return `${target} is not None`;
      case 'not_exists': return `${target} is None`;
      case 'truthy': return target;
      case 'falsy': return `not ${target}`;
      case 'matches':
        this.skip(path, `matches ${String(p.value)}`, 'a regex rule is written as a substring test');
        return `${v} in str(${target})`;
    }
  }
}

function escapeBraces(text: string): string {
  return text.replace(/\{/g, '{{').replace(/\}/g, '}}');
}

function pyType(value: unknown): string {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'List[Any]';
  return 'Optional[Any]';
}

function pyValue(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyValue).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${pyValue(v)}`).join(', ')}}`;
}

/** A one-line Python docstring. */
function pyDocstring(text: string): string {
  return `"""${oneLine(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"""`;
}

/** The Python type of a state schema property (str, int, float, bool, List[...], Optional[...]); undefined when richer. */
function schemaType(prop: unknown): string | undefined {
  if (prop === null || typeof prop !== 'object') return undefined;
  const p = prop as Record<string, unknown>;
  let t = p.type;
  let nullable = false;
  if (Array.isArray(t) && t.length === 2 && t[1] === 'null') {
    t = t[0];
    nullable = true;
  }
  const scalars: Record<string, string> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool' };
  let out: string | undefined = typeof t === 'string' ? scalars[t] : undefined;
  if (t === 'array') {
    const inner = schemaType(p.items);
    out = inner ? `List[${inner}]` : undefined;
  }
  return out && nullable ? `Optional[${out}]` : out;
}
