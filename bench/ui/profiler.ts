import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename, join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';

/**
 * `--profile DIR`: for the first repetition of each scenario, a Chrome trace (main-thread work by kind:
 * script, style, layout, paint, GC…) and a sampled JS CPU profile mapped through the renderer's source
 * map (self time by source file and function). Both are written to DIR and summarised on stderr.
 * Profiling slows the page down; the profiled repetition is still counted, so use it with --runs to
 * judge, or read the figures of a run without --profile.
 */
export class Profiler {
  private done = new Set<string>();
  private active: { name: string; cdp: CDPSession; t0: number } | undefined;
  readonly summaries: string[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly dir: string,
    assetsDir: string,
  ) {
    mkdirSync(join(dir, 'sourcemaps'), { recursive: true });
    // The renderer may be rebuilt later (new hashes); keep the maps beside the profiles for the CLI below.
    for (const f of readdirSync(assetsDir).filter((f) => f.endsWith('.js.map'))) copyFileSync(join(assetsDir, f), join(dir, 'sourcemaps', f));
  }

  async start(page: Page, name: string): Promise<void> {
    if (this.done.has(name) || this.active) return;
    this.done.add(name);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await this.browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel', 'blink.user_timing', 'latencyInfo'],
    });
    await cdp.send('Profiler.start');
    this.active = { name, cdp, t0: performance.now() };
  }

  async stop(_page: Page): Promise<void> {
    if (!this.active) return;
    const { name, cdp, t0 } = this.active;
    this.active = undefined;
    const wallMs = performance.now() - t0;
    const { profile } = await cdp.send('Profiler.stop');
    const trace = await this.browser.stopTracing();
    await cdp.detach();
    const traceFile = join(this.dir, `${name}.trace.json`);
    const profileFile = join(this.dir, `${name}.cpuprofile`);
    writeFileSync(traceFile, trace);
    writeFileSync(profileFile, JSON.stringify(profile));
    const summary = [
      `── profile: ${name}, ${wallMs.toFixed(0)} ms (${traceFile}, ${profileFile})`,
      summariseTrace(JSON.parse(trace.toString('utf8')) as ChromeTrace),
      '',
      summariseCpuProfile(profile as CpuProfile, (url) => this.sourceMapFor(url)),
    ].join('\n');
    this.summaries.push(summary);
    process.stderr.write(`${summary}\n`);
  }

  private maps = new Map<string, SourceMap | undefined>();
  private sourceMapFor(url: string): SourceMap | undefined {
    if (!url.includes('/assets/')) return undefined;
    const file = join(this.dir, 'sourcemaps', `${basename(new URL(url).pathname)}.map`);
    if (!this.maps.has(file)) this.maps.set(file, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined);
    return this.maps.get(file);
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}
interface ChromeTrace {
  traceEvents: TraceEvent[];
}

/** Self time of the renderer main thread's trace events, by event name (what kind of work dominates). */
export function summariseTrace(trace: ChromeTrace): string {
  const events = trace.traceEvents;
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const key = (e: { pid: number; tid: number }) => `${e.pid}:${e.tid}`;
  const counts = new Map<string, number>();
  for (const e of events) if (e.ph === 'X') counts.set(key(e), (counts.get(key(e)) ?? 0) + 1);
  const main = mains.map(key).sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0))[0];
  if (!main) return 'trace: no renderer main thread found';
  const spans = events.filter((e) => e.ph === 'X' && e.dur !== undefined && key(e) === main).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: { name: string; end: number; child: number; dur: number }[] = [];
  const pop = () => {
    const top = stack.pop()!;
    self.set(top.name, (self.get(top.name) ?? 0) + Math.max(0, top.dur - top.child));
  };
  let busy = 0;
  for (const e of spans) {
    while (stack.length && stack[stack.length - 1]!.end <= e.ts) pop();
    if (stack.length) stack[stack.length - 1]!.child += e.dur!;
    else busy += e.dur!;
    stack.push({ name: e.name, end: e.ts + e.dur!, child: 0, dur: e.dur! });
  }
  while (stack.length) pop();
  const ms = (us: number) => `${(us / 1000).toFixed(1).padStart(8)} ms`;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const kinds = new Map<string, number>();
  for (const [name, us] of self) kinds.set(kindOf(name), (kinds.get(kindOf(name)) ?? 0) + us);
  const lines = [`renderer main thread busy (top-level trace events): ${(busy / 1000).toFixed(0)} ms; self time by kind of work:`];
  for (const [kind, us] of [...kinds].sort((a, b) => b[1] - a[1])) lines.push(`${ms(us)} ${pct(us)}  ${kind}`);
  lines.push('by trace event:');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`${ms(us)} ${pct(us)}  ${name}`);
  return lines.join('\n');
}

/** Groups Blink/V8 trace event names into the kinds DevTools shows. */
function kindOf(name: string): string {
  if (/^(FunctionCall|v8\.|V8\.(?!GC)|EvaluateScript|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|SerializedScriptValue|ParseHTML|CpuProfiler)/.test(name)) return 'script (JS, incl. React)';
  if (/GC|Scavenge|MajorGC|MinorGC|BlinkGC/.test(name)) return 'garbage collection';
  if (/recalcStyle|UpdateLayoutTree|StyleRecalc|Style/i.test(name)) return 'style';
  if (/Layout|InlineNode|Shape|LayoutBlock|LayoutObject/.test(name)) return 'layout';
  if (/Paint|Commit|Layeriz|Composit|UpdateLayer|Raster|PrePaint|Blink\.(PrePaint|Paint|CompositingInputs)/.test(name)) return 'paint and compositing';
  if (/HitTest|EventHandler|Input/.test(name)) return 'input and hit testing';
  return 'other (task scheduling, IPC)';
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time of the sampled JS profile, by original source file and by function (through the source map). */
export function summariseCpuProfile(profile: CpuProfile, mapFor: (url: string) => SourceMap | undefined): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfById = new Map<number, number>();
  profile.samples.forEach((id, i) => selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const files = new Map<string, number>();
  const fns = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let program = 0;
  for (const [id, us] of selfById) {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') {
      // (program) is the browser's own work outside JS (style, layout, paint): the trace summary covers it.
      if (functionName === '(idle)') idle += us;
      else program += us;
      continue;
    }
    total += us;
    let file = url ? url.replace(/^https?:\/\/[^/]+\//, '') : functionName || '(native)';
    let fn = functionName || '(anonymous)';
    const map = url ? mapFor(url) : undefined;
    if (map && lineNumber >= 0) {
      const entry = map.findEntry(lineNumber, columnNumber) as { originalSource?: string; originalLine?: number; name?: string };
      if (entry.originalSource) {
        file = shortSource(entry.originalSource);
        fn = `${entry.name ?? fn} ${file}:${(entry.originalLine ?? 0) + 1}`;
      }
    }
    files.set(groupOf(file), (files.get(groupOf(file)) ?? 0) + us);
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const ms = (us: number) => `${(us / 1000).toFixed(1).padStart(8)} ms`;
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const lines = [
    `JS profile: ${(total / 1000).toFixed(0)} ms in JS (${(program / 1000).toFixed(0)} ms browser work outside JS, ${(idle / 1000).toFixed(0)} ms idle); JS self time by source:`,
  ];
  for (const [f, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`${ms(us)} ${pct(us)}  ${f}`);
  lines.push('top JS functions by self time:');
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`${ms(us)} ${pct(us)}  ${f}`);
  return lines.join('\n');
}

function shortSource(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) return source.slice(nm + 'node_modules/'.length);
  const ours = /(renderer|shared)\/.*$/.exec(source);
  return ours ? ours[0] : source;
}

/** Packages as one group (`@xyflow/react`, `react-dom`), our files one by one. */
function groupOf(file: string): string {
  if (file.startsWith('(')) return file;
  const pkg = /^((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (pkg && !file.startsWith('renderer/') && !file.startsWith('shared/')) return pkg[1]!;
  return file;
}

/** `node --import tsx bench/ui/profiler.ts DIR`: summarises again the profiles a `--profile DIR` run wrote. */
if (process.argv[1] && /bench\/ui\/profiler\.ts$/.test(process.argv[1])) {
  const [dir] = process.argv.slice(2);
  const assets = dir ? join(dir, 'sourcemaps') : '';
  if (!dir) {
    console.error('usage: node --import tsx bench/ui/profiler.ts <profile dir>');
    process.exit(2);
  }
  const maps = new Map<string, SourceMap | undefined>();
  const mapFor = (url: string) => {
    if (!url.includes('/assets/')) return undefined;
    const file = join(assets, `${basename(new URL(url).pathname)}.map`);
    if (!maps.has(file)) maps.set(file, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined);
    return maps.get(file);
  };
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.trace.json')).sort()) {
    const base = name.slice(0, -'.trace.json'.length);
    console.log(`── ${base}`);
    console.log(summariseTrace(JSON.parse(readFileSync(join(dir, name), 'utf8')) as ChromeTrace));
    const cpu = join(dir, `${base}.cpuprofile`);
    if (existsSync(cpu)) console.log(`\n${summariseCpuProfile(JSON.parse(readFileSync(cpu, 'utf8')) as CpuProfile, mapFor)}\n`);
  }
}
