// The layering of judgeloop, enforced by `npm run lint` (AGENTS.md "Layers" explains it).
//
//   scripts/<cmd>.ts                      command entries: may import any area, never each other
//   lib/cli                               the command layer (definitions, help, completion): only for scripts/
//   lib/view                              bin/report: state → view model → one HTML page
//   lib/race                              ranks solutions: uses collector, judge, ratings
//   lib/judge                             uses collector (collect before judging)
//   lib/collector lib/templates lib/ratings lib/record
//   lib/change                            reading a change: findings, no-op and gaming checks, metrics
//   lib/store                             state files, locks, the feedback index
//   lib/config                            defaults < file < env < flags
//   lib/git                               the one safe git recipe
//   lib/process                           process groups, sandbox, environment scrub
//   lib/secrets                           the one secret table
//   lib/stats lib/report lib/evidence     pure or near-pure foundations (evidence: the one trust rule)
//   lib/schema                            schemas and generated types
//   lib/base                              errors, env, clock, paths, cleanup registry: imports nothing of ours
//
// An area may import only areas below it; nothing imports up, nothing forms a cycle.
const LAYERS = [
  ['base'],
  ['schema'],
  ['stats', 'report', 'evidence'],
  ['secrets'],
  ['process'],
  ['git'],
  ['config'],
  ['store'],
  ['change'],
  ['collector', 'templates', 'ratings', 'record'],
  ['judge'],
  ['race'],
  ['view'],
  ['cli'],
];

const rank = new Map(LAYERS.flatMap((areas, i) => areas.map((a) => [a, i])));
const areasAtOrAbove = (i) => LAYERS.slice(i).flat();

const upward = LAYERS.flatMap((areas, i) =>
  areas.map((a) => ({
    name: `no-up-from-${a}`,
    comment: `lib/${a} may import only areas below it (${LAYERS.slice(0, i).flat().join(', ') || 'none'}) and itself`,
    severity: 'error',
    from: { path: `^lib/${a}/` },
    to: {
      path: `^lib/(${areasAtOrAbove(i)
        .filter((b) => b !== a && (rank.get(b) ?? 0) >= i)
        .join('|')})/`,
    },
  })),
).filter((r) => !r.to.path.endsWith('()/'));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles, at any depth',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-to-scripts',
      severity: 'error',
      comment: 'the library never imports a command entry',
      from: { path: '^lib/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'scripts-not-to-scripts',
      severity: 'error',
      comment: 'command entries do not import each other: shared code belongs in an area',
      from: { path: '^scripts/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'no-dev-from-product',
      severity: 'error',
      comment: 'the product (scripts/, lib/) never imports dev tools, the demo, tests or benchmarks',
      from: { path: '^(scripts|lib)/' },
      to: { path: '^(dev|demo|test|bench)/' },
    },
    {
      name: 'no-dev-dependencies-in-product',
      severity: 'error',
      comment: 'the product runs without dev dependencies (npm ci --omit=dev)',
      from: { path: '^(scripts|lib)/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
