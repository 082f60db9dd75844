/**
 * The layers and the modules' boundaries (docs/ARCHITECTURE.md, "Boundaries"), checked by
 * `npm run lint:boundaries` in `npm run validate` and in CI.
 */
module.exports = {
  forbidden: [
    {
      name: 'web-never-imports-server',
      comment: 'The browser bundle never contains server code.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-never-imports-web',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'shared-imports-neither',
      comment: 'src/shared could become its own package unchanged.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(server|web)/' },
    },
    {
      name: 'module-internals-stay-inside',
      comment:
        'A server module reaches another only through its service (*.service.ts); compose modules in a service.',
      severity: 'error',
      from: { path: '^src/server/modules/([^/]+)/', pathNot: '[.]test[.]ts$' },
      to: {
        path: '^src/server/modules/[^/]+/',
        pathNot: ['^src/server/modules/$1/', '[.]service[.]ts$'],
      },
    },
    {
      name: 'plugins-do-not-import-modules',
      comment: 'Plugins are the framework around the modules; app.ts wires modules into them.',
      severity: 'error',
      from: { path: '^src/server/plugins/' },
      to: { path: '^src/server/modules/' },
    },
    {
      name: 'routes-only-from-app',
      comment: 'A route plugin is registered by app.ts only.',
      severity: 'error',
      from: { pathNot: '^src/server/app[.]ts$|^test/|^bench/' },
      to: { path: '[.]routes[.]ts$' },
    },
    {
      name: 'feature-internals-stay-inside',
      comment:
        'A web feature uses another only through its api.ts and components/; pages compose features.',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/' },
      to: {
        path: '^src/web/features/[^/]+/',
        pathNot: ['^src/web/features/$1/', '^src/web/features/[^/]+/(api[.]ts|components/)'],
      },
    },
    {
      name: 'no-cycle-between-modules',
      comment:
        "Modules depend one way: no cycle between two server modules' folders, whichever files " +
        'make it (a file-level cycle rule does not see a.service -> b.service, b.other -> a.service). ' +
        'Side effects go through the lead events (src/server/events), values through ports from app.ts.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/server/modules/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no compiler API, so Babel strips the types before the imports are read
    // (@swc/core only makes depcruise accept .ts/.tsx files). `import type` lines are erased
    // with the types, so the rules see value imports only: what reaches a bundle or a process.
    babelConfig: { fileName: '.babelrc.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
