/**
 * The dependency rule of ARCHITECTURE.md, checked in `npm test`:
 * renderer → shared; electron → runtime/host → runtime → shared.
 */
/** What RunContext (runtime/agent) carries of the layers above it: their types only. */
const AGENT_CARRIES = '^runtime/((memory|knowledge)/types|run/budgetGuard)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'shared-is-pure',
      comment: 'shared/ is pure TypeScript: no Node built-ins, no other folder of the repo; zod and re2js (pure JS, the linear-time regex engine) only',
      severity: 'error',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', '^node_modules/zod/', '^node_modules/re2js/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-no-node',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'runtime-no-ui',
      comment: 'runtime/ never imports Electron, React, React Flow or the renderer',
      severity: 'error',
      from: { path: '^runtime/' },
      to: { path: ['^renderer/', '^electron/', '^node_modules/(electron|react|react-dom|@xyflow)/'] },
    },
    {
      name: 'renderer-only-shared',
      comment: 'the renderer reaches the runtime only through the host API in shared/',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: ['^runtime/', '^electron/'] },
    },
    {
      name: 'electron-only-host',
      comment: 'electron/ is a thin transport: it reaches the runtime only through runtime/host',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^runtime/', pathNot: '^runtime/host/' },
    },
    {
      name: 'electron-no-renderer',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'preload-only-shared',
      comment: 'the preload runs beside untrusted content: it may import shared/ only',
      severity: 'error',
      from: { path: '^electron/preload/' },
      to: { pathNot: ['^shared/', '^electron/preload/', '^electron/ipcChannels\\.ts$', '^node_modules/electron/'] },
    },
    {
      name: 'electron-main-no-runtime',
      comment: 'the runtime runs in the utility process (electron/runtime), never in the main process',
      severity: 'error',
      from: { path: '^electron/main/' },
      to: { path: '^runtime/', dependencyTypesNot: ['type-only'] },
    },
    // runtime/ layers, lowest first, in ARCHITECTURE's words. A layer may import the layers below it,
    // never one above:
    //   store/   better-sqlite3: migrations, runs, events, outputs, flow states, training
    //   llm/     ChatModel interface; openai provider; scripted provider; rate limit; usage
    //   tools/   one file per built-in tool; registry; policy gate (hooks, cache, limits, approval)
    //   agent/   prompt assembly, executor loop (native + ReAct), ReAct parser (and the RunContext)
    //   run/     one run's lifecycle: event log, abort chain, the run's policy gate, end, final store write
    //   memory/ knowledge/   LanceDB store, embedders, encoding, recall, consolidation; knowledge ingest
    //   crew/    kickoff, sequential, hierarchical, delegation tools, guardrails, outputs, replay
    //   flow/    flow engine, conditions, method bodies, persistence
    //   training/ testing/   train loop, evaluator, suggestion versions; test runner and scoring
    //   host/    HostService: implements shared/host-api over the pieces above
    //   cli/     the crewdeck command
    // Exception: RunContext (agent/) names the shapes of what a run carries, as types only: its memory
    // and knowledge (memory/types.ts, knowledge/types.ts) and its budget guard (run/budgetGuard.ts).
    ...[
      ['store', ['llm', 'tools', 'agent', 'run', 'memory', 'knowledge', 'crew', 'flow', 'training', 'testing', 'host', 'cli']],
      ['llm', ['tools', 'agent', 'run', 'memory', 'knowledge', 'crew', 'flow', 'training', 'testing', 'host', 'cli']],
      ['tools', ['agent', 'run', 'memory', 'knowledge', 'crew', 'flow', 'training', 'testing', 'host', 'cli']],
      ['agent', ['run', 'memory', 'knowledge', 'crew', 'flow', 'training', 'testing', 'host', 'cli']],
      ['run', ['memory', 'knowledge', 'crew', 'flow', 'training', 'testing', 'host', 'cli']],
      ['(memory|knowledge)', ['crew', 'flow', 'training', 'testing', 'host', 'cli']],
      ['crew', ['flow', 'training', 'testing', 'host', 'cli']],
      ['flow', ['training', 'testing', 'host', 'cli']],
      ['(training|testing)', ['host', 'cli']],
      ['host', ['cli']],
    ].map(([layer, above]) => ({
      name: `runtime-layer-${layer.replace(/[()]/g, '').replace('|', '-')}`,
      comment: `runtime/${layer}/ may not import a layer above it (${above.join(', ')}): see the layer order above`,
      severity: 'error',
      from: { path: `^runtime/${layer}/` },
      to: {
        path: `^runtime/(${above.join('|')})/`,
        ...(layer === 'agent' ? { pathNot: AGENT_CARRIES } : {}),
      },
    })),
    {
      name: 'runtime-agent-layer-types-only',
      comment: 'the exception above is for types only: RunContext carries memory and knowledge, it does not use their code',
      severity: 'error',
      from: { path: '^runtime/agent/' },
      to: { path: AGENT_CARRIES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.runtime.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
