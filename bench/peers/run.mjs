// `npm run bench:peers`: Crewdeck beside the JavaScript agent frameworks a user would pick instead, on
// one zero-latency OpenAI-compatible server on 127.0.0.1, every measurement in a fresh process, the
// frameworks interleaved in each repetition. Installs its own dependencies (bench/peers/package.json and
// its lock file) the first time; the main install never carries the peers.
//
//   node bench/peers/run.mjs [--reps 5] [--only crewdeck,openaiAgents,...] [--no-write]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DELEGATIONS, PARALLEL, TASKS } from './frameworks/workloads.mjs';
import { startZeroServer } from './zeroServer.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const { values: args } = parseArgs({ options: { reps: { type: 'string', default: '5' }, only: { type: 'string' }, 'no-write': { type: 'boolean', default: false } } });
const reps = Number(args.reps);

function installPeers() {
  const marker = join(here, 'node_modules/.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(join(here, 'package-lock.json')).mtimeMs) return;
  process.stderr.write('bench:peers: installing the peers (bench/peers/package-lock.json) — once, a few minutes\n');
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
  if (npm.status !== 0) throw new Error('npm ci in bench/peers failed');
}

const FRAMEWORKS = [
  { id: 'crewdeck', file: 'crewdeck.ts', tsx: true },
  { id: 'openaiAgents', file: 'openaiAgents.mjs', version: '@openai/agents' },
  { id: 'langgraph', file: 'langgraph.mjs', version: '@langchain/langgraph' },
  { id: 'langgraphSqlite', file: 'langgraphSqlite.mjs', version: '@langchain/langgraph-checkpoint-sqlite' },
  { id: 'mastra', file: 'mastra.mjs', version: '@mastra/core' },
  { id: 'kaiban', file: 'kaiban.mjs', version: 'kaibanjs' },
  { id: 'floorSdk', file: 'floorSdk.mjs', version: 'openai', floor: true },
  { id: 'floorHttp', file: 'floorHttp.mjs', floor: true },
];
const WORKLOADS = [
  { id: 'W1', title: `W1: ${TASKS} sequential tasks, previous task as context`, per: TASKS, fn: 'sequential' },
  { id: 'W2', title: `W2: W1 with a calculator call every 4th task`, per: TASKS, fn: 'sequential', tools: true },
  { id: 'W3', title: `W3: a manager delegating to a worker, ×${DELEGATIONS}`, per: DELEGATIONS, fn: 'delegation' },
  { id: 'W6', title: `W6: ${PARALLEL} parallel 200 ms calls`, per: 1, fn: 'parallel' },
];

const env = { ...process.env, KAIBAN_TELEMETRY_OPT_OUT: '1', OPENAI_API_KEY: '', NO_COLOR: '1' };
delete env.OPENAI_BASE_URL;

function nodeArgs(fw) {
  return [...(fw.tsx ? ['--import', 'tsx'] : []), '--import', join(here, 'loopbackOnly.mjs')];
}

function runProcess(command, argv, { timeoutMs = 600_000, extraEnv = {} } = {}) {
  return new Promise((resolveRun) => {
    const t0 = performance.now();
    const child = spawn(command, argv, { cwd: repo, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr, wallMs: performance.now() - t0 });
    });
  });
}

function lastJson(stdout) {
  const line = stdout.trim().split('\n').pop();
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const median = (v) => {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const p95 = (v) => {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.max(1, Math.ceil(0.95 * s.length)) - 1];
};

function versionOf(pkg) {
  if (!pkg) return '';
  try {
    return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

function crewdeckColdDoc(baseUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-crewdeck-cold-'));
  const file = join(dir, 'one.crew.json');
  writeFileSync(file, JSON.stringify({
    kind: 'crew', version: 1, id: 'one', name: 'One task', process: 'sequential',
    agents: [{ id: 'analyst', role: 'Analyst', goal: 'Answer in one short line.', backstory: 'Careful.', llm: { provider: 'openai', model: 'bench', baseUrl, stream: true } }],
    tasks: [{ id: 't1', description: 'Task 1: summarise the figures for section 1 in one line.', expectedOutput: 'One line.', agentId: 'analyst' }],
  }));
  return { dir, file };
}

async function main() {
  installPeers();
  if (!existsSync(join(repo, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench:peers does)');
  const only = args.only ? new Set(args.only.split(',')) : undefined;
  const frameworks = FRAMEWORKS.filter((f) => !only || only.has(f.id));
  const mods = new Map();
  for (const fw of frameworks) {
    if (fw.tsx) {
      mods.set(fw.id, { name: 'Crewdeck', streams: true, persists: 'every event (SQLite, WAL)', sequential: true, delegation: true, parallel: true, coldOne: true });
      continue;
    }
    mods.set(fw.id, await import(join(here, 'frameworks', fw.file)));
  }

  const server = await startZeroServer();
  const load = [loadavg()[0]];
  const results = new Map(); // `${fw}:${W}` -> {ms:[], rss:[], requests:[], failures:[]}
  const slot = (key) => results.get(key) ?? (results.set(key, { ms: [], rss: [], requests: [], failures: [] }), results.get(key));
  const refused = [];

  for (let rep = 0; rep < reps; rep++) {
    // Rotate the order each repetition so no framework always runs right after the same neighbour.
    const order = frameworks.map((_, k) => frameworks[(k + rep) % frameworks.length]);
    for (const fw of order) {
      const mod = mods.get(fw.id);
      for (const w of WORKLOADS) {
        if (!mod[w.fn] || (w.tools && fw.floor) || (w.id === 'W3' && fw.floor)) continue;
        if (fw.id === 'floorHttp' && w.id !== 'W1') continue;
        const before = server.requests();
        const r = await runProcess('node', [...nodeArgs(fw), join(here, 'child.mjs'), join(here, 'frameworks', fw.file), w.id, server.baseUrl]);
        const s = slot(`${fw.id}:${w.id}`);
        if (/bench: refused a connection/.test(r.stderr)) refused.push(`${fw.id} ${w.id}: ${r.stderr.match(/refused a connection to \S+/)[0]}`);
        const out = lastJson(r.stdout);
        if (r.code !== 0 || !out) {
          s.failures.push(r.stderr.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l)).slice(-3).join(' | ').slice(0, 300));
          continue;
        }
        s.ms.push(out.ms / w.per);
        s.rss.push(out.maxRssMiB);
        s.requests.push(server.requests() - before);
      }
      // W4: cold start of a 1-task run, timed from outside the process.
      if (fw.id === 'floorHttp') continue;
      const s = slot(`${fw.id}:W4`);
      const r = fw.tsx
        ? await (async () => {
            const { dir, file } = crewdeckColdDoc(server.baseUrl);
            // The zero-latency server is the user's own model server (OPENAI_BASE_URL): a document's baseUrl on it needs no workspace trust.
            return runProcess('node', ['--import', join(here, 'loopbackOnly.mjs'), join(repo, 'bin/crewdeck.js'), 'run', file, '--json', '--workspace', dir], { extraEnv: { OPENAI_BASE_URL: server.baseUrl } });
          })()
        : await runProcess('node', [...nodeArgs(fw), join(here, 'cold.mjs'), join(here, 'frameworks', fw.file), server.baseUrl]);
      if (r.code !== 0) s.failures.push(r.stderr.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l)).slice(-3).join(' | ').slice(0, 300));
      else s.ms.push(r.wallMs);
    }
    process.stderr.write(`bench:peers: repetition ${rep + 1}/${reps} done\n`);
  }
  load.push(loadavg()[0]);
  await server.close();
  return { frameworks, mods, results, load, refused };
}

function fmt(v, digits = 2) {
  return Number.isFinite(v) ? v.toFixed(digits) : '—';
}

function report({ frameworks, mods, results, load, refused }) {
  const lines = [];
  const cpu = cpus()[0]?.model?.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  lines.push(`- **Date:** ${new Date().toISOString().slice(0, 10)}`);
  lines.push(`- **Machine:** ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${process.platform} ${process.arch}, Node ${process.version}`);
  lines.push(`- **Load:** 1-minute load average ${load[0].toFixed(2)} before, ${load[1].toFixed(2)} after (on 2 cores, above ~1 inflates every figure)`);
  lines.push(`- **Command:** \`npm run bench:peers\` (${reps} repetitions; each measurement is a fresh process that first warms up on a small run of the same workload; frameworks interleaved, order rotated per repetition)`);
  lines.push(`- **Server:** one zero-latency OpenAI-compatible server on 127.0.0.1 (bench/peers/zeroServer.mjs), so the time is framework + client + HTTP; only W6 waits (200 ms per call)`);
  const versions = frameworks.filter((f) => f.version).map((f) => `${f.version} ${versionOf(f.version)}`);
  lines.push(`- **Versions:** Crewdeck (this commit), ${versions.join(', ')}`);
  lines.push('');
  const crew = (w) => median(results.get(`crewdeck:${w}`)?.ms ?? []);
  const header = ['framework', 'streams', 'persists', ...WORKLOADS.map((w) => `${w.id} ms${w.per > 1 ? '/task' : ''} median / p95`), 'W4 cold 1-task run, ms median / p95', 'W5 peak RSS (W1), MiB'];
  lines.push(`| ${header.join(' | ')} |`);
  lines.push(`|${header.map((_, i) => (i < 3 ? '---' : '--:')).join('|')}|`);
  for (const fw of frameworks) {
    const mod = mods.get(fw.id);
    const cells = [mod.name, mod.streams ? 'yes' : 'no', mod.persists];
    for (const w of [...WORKLOADS, { id: 'W4' }]) {
      const r = results.get(`${fw.id}:${w.id}`);
      if (!r || (!r.ms.length && !r.failures.length)) cells.push('n/a');
      else if (!r.ms.length) cells.push(`failed (${r.failures.length}×)`);
      else cells.push(`${fmt(median(r.ms), w.id === 'W4' || w.id === 'W6' ? 0 : 3)} / ${fmt(p95(r.ms), w.id === 'W4' || w.id === 'W6' ? 0 : 3)}${r.failures.length ? ` (${r.failures.length} failed)` : ''}`);
    }
    const rss = results.get(`${fw.id}:W1`)?.rss ?? [];
    cells.push(rss.length ? fmt(median(rss), 0) : 'n/a');
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push('Ratio of each framework\'s median to Crewdeck\'s (above 1: slower than Crewdeck):');
  lines.push('');
  const rh = ['framework', 'W1', 'W2', 'W3', 'W4 cold', 'W6'];
  lines.push(`| ${rh.join(' | ')} |`);
  lines.push(`|---|${rh.slice(1).map(() => '--:').join('|')}|`);
  for (const fw of frameworks.filter((f) => f.id !== 'crewdeck')) {
    const cells = [mods.get(fw.id).name];
    for (const w of ['W1', 'W2', 'W3', 'W4', 'W6']) {
      const m = median(results.get(`${fw.id}:${w}`)?.ms ?? []);
      cells.push(Number.isFinite(m) && Number.isFinite(crew(w)) ? `${fmt(m / crew(w))}×` : 'n/a');
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push('');
  const sdk = median(results.get('floorSdk:W1')?.ms ?? []);
  const sdkCold = median(results.get('floorSdk:W4')?.ms ?? []);
  lines.push(`Targets (issue: performance near the wire): W1 per task ≤ 1.2× the bare SDK — **${fmt(crew('W1') / sdk)}×** (${fmt(crew('W1'), 3)} vs ${fmt(sdk, 3)} ms); 1-task cold run ≤ 1.5× the one-call script — **${fmt(crew('W4') / sdkCold)}×** (${fmt(crew('W4'), 0)} vs ${fmt(sdkCold, 0)} ms).`);
  lines.push('');
  lines.push('Where the comparison is not like-for-like:');
  lines.push('- **Persistence:** Crewdeck writes every event to SQLite; LangGraph + SQLite writes a checkpoint per super-step; the others keep nothing (KaibanJS keeps its logs in memory).');
  lines.push('- **Prompts:** each framework builds its own prompt around the same task text (Crewdeck adds role, goal, backstory and the context task; KaibanJS a long ReAct-in-JSON system prompt), so request sizes differ; the server\'s work per request is the same small reply.');
  lines.push('- **Streaming:** all stream except KaibanJS (its agents call the model without streaming).');
  lines.push('- **Transport:** Crewdeck hands the openai SDK a fetch on node:http with keep-alive (runtime/llm/nodeHttpFetch.ts); the bare-SDK floor and the peers use their clients\' default (Node\'s fetch, undici), which costs more CPU per call: the raw node:http row is the floor under both.');
  lines.push('- **W3:** the OpenAI Agents SDK and Mastra delegate through the worker-agent-as-tool pattern, LangGraph through a supervisor graph, Crewdeck through its hierarchical manager; KaibanJS has no manager → worker delegation (n/a).');
  lines.push('- **W4:** Crewdeck\'s figure is the `crewdeck run … --json` command (document validation, run store, events on disk); the others are a script that imports the framework and runs one task.');
  lines.push('- **Network:** every process is started with bench/peers/loopbackOnly.mjs, which refuses any connection that is not loopback (KaibanJS telemetry is opted out with KAIBAN_TELEMETRY_OPT_OUT; LangChain\'s tiktoken download is avoided by reading streams with `.stream()`).');
  if (refused.length) lines.push(`- **Refused connections:** ${refused.join('; ')}`);
  const failures = [...results.entries()].filter(([, r]) => r.failures.length).map(([k, r]) => `${k}: ${r.failures[0]}`);
  if (failures.length) {
    lines.push('');
    lines.push('Failures:');
    for (const f of failures) lines.push(`- ${f}`);
  }
  return lines.join('\n');
}

function writeBlock(content) {
  const file = join(repo, 'docs/PERFORMANCE.md');
  const begin = '<!-- bench:peers:begin — generated by bench/peers/run.mjs; edit outside these markers -->';
  const end = '<!-- bench:peers:end -->';
  let text = readFileSync(file, 'utf8');
  if (!text.includes(begin)) text = `${text.trimEnd()}\n\n## Beside the peers (npm run bench:peers)\n\n${begin}\n${end}\n`;
  const start = text.indexOf(begin) + begin.length;
  writeFileSync(file, `${text.slice(0, start)}\n${content}\n${text.slice(text.indexOf(end))}`);
  return file;
}

const outcome = await main();
const text = report(outcome);
process.stdout.write(`${text}\n`);
if (!args['no-write']) process.stderr.write(`bench:peers: wrote ${writeBlock(text)}\n`);
