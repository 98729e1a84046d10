/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, and the self time
 * grouped by area (our runtime folders, node_modules packages, node internals, GC, idle).
 *
 *   node --expose-gc --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/runtime.bench.ts --only sequential-200 --runs 30
 *   node --import tsx bench/cpuProfileSummary.ts /tmp/prof/<file>.cpuprofile [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function area(url: string, name: string): string {
  if (name === '(garbage collector)') return '(garbage collector)';
  if (name === '(idle)' || name === '(program)' || name === '(root)') return name;
  if (url === '') return '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `pkg:${nm[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  const ours = /\/(runtime|shared|bench)\/(?:([^/]+)\/)?[^/]+$/.exec(url);
  if (ours) return ours[2] && ours[1] !== 'bench' ? `${ours[1]}/${ours[2]}` : ours[1]!;
  return url;
}

function short(url: string): string {
  const nm = url.indexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const m = /\/((?:runtime|shared|bench)\/.*)$/.exec(url);
  return m ? m[1]! : url.replace(/^file:\/\//, '');
}

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    // Line numbers of our TypeScript files are those of the tsx output, so they are left out.
    const key = !url ? name : url.includes("node_modules/") || url.startsWith("node:") ? `${name}  ${short(url)}:${lineNumber + 1}` : `${name}  ${short(url)}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const a = area(url, name);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(1).padStart(8)} ms`;
  const lines = [`total sampled: ${(total / 1000).toFixed(0)} ms`, '', 'self time by area:'];
  for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, 20)) lines.push(`${ms(us)} ${pct(us)}  ${a}`);
  lines.push('', `top ${top} functions by self time:`);
  for (const [k, us] of [...fn].sort((x, y) => y[1] - x[1]).slice(0, top)) lines.push(`${ms(us)} ${pct(us)}  ${k}`);
  return lines.join('\n');
}

if (process.argv[1] && /cpuProfileSummary\.ts$/.test(process.argv[1])) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node --import tsx bench/cpuProfileSummary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, top ? Number(top) : 25));
}
