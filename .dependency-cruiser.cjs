/**
 * The dependency rule of ARCHITECTURE.md, checked in `npm test`:
 * renderer → shared; electron → runtime/host → runtime → shared.
 */
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
