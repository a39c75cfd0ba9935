// The project's layers, checked in `npm test` (`npm run layers` runs depcruise with this file).
// From the bottom: values/ → schemas/ → functions/ (shared/ under every feature) → lib/ (CDK) and bin/ (commands).

// The folders of functions/ from the bottom up: a folder imports only folders of a lower tier (docs/design.md, Layout).
const FUNCTION_TIERS = [
  ['definitions'],
  ['shared'],
  ['organisations', 'rate-limit', 'profiles', 'web-console'],
  ['management-tokens'],
  ['search'],
  ['resources'],
  ['cohorts'],
  ['retention'],
  ['management', 'governance', 'oauth', 'ethereum', 'enrichment', 'exports', 'event-voids'],
  ['billing', 'emails', 'console-sessions', 'shared-views'],
  ['notifications', 'customer-portal'],
  ['ingest', 'cohort-notifications', 'alerts'],
  ['openapi'],
  ['routers'],
  ['composition-root'],
  ['entries'],
];

const tierRules = FUNCTION_TIERS.slice(0, -1).map((tier, level) => {
  const higher = FUNCTION_TIERS.slice(level + 1).flat();
  const folders = `(${tier.join('|')})`;
  return {
    name: `tier-${level}-${tier.join('-')}`,
    comment: `functions/${folders}/ may import only lower tiers, never ${higher.join(', ')} (nor another folder of its own tier).`,
    severity: 'error',
    from: { path: `^functions/${folders}/` },
    to: { path: `^functions/(${[...higher, ...tier].join('|')})/`, pathNot: `^functions/$1/` },
  };
});

module.exports = {
  forbidden: [
    ...tierRules,
    {
      name: 'every-function-folder-has-a-tier',
      comment: 'A new folder of functions/ is placed in FUNCTION_TIERS above, so its imports are checked.',
      severity: 'error',
      from: { path: `^functions/(?!(${FUNCTION_TIERS.flat().join('|')})/)` },
      to: {},
    },
    {
      name: 'features-never-import-routers-or-entries',
      comment: 'Routers compose the features into APIs and entries wire them into Lambdas: a feature never reaches up to either.',
      severity: 'error',
      from: { path: '^functions/', pathNot: '^functions/(routers|composition-root|entries)/' },
      to: { path: '^functions/(routers|entries)/' },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and a module impossible to read alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'values-are-the-bottom',
      comment: 'values/ holds pure value types (exact decimals, ISO date-times, periods, addresses): it imports nothing of the project outside itself.',
      severity: 'error',
      from: { path: '^values/' },
      to: { path: '^(schemas|functions|lib|bin|test|console)/' },
    },
    {
      name: 'schemas-hold-data-shapes-only',
      comment: 'schemas/ declares data shapes with zod: it may use values/ and itself, never the code that acts on the data.',
      severity: 'error',
      from: { path: '^schemas/' },
      to: { path: '^(functions|lib|bin|test|console)/' },
    },
    {
      name: 'shared-serves-every-feature',
      comment: 'functions/shared/ is the toolbox under the features (it may read the definitions): it never reaches up into one of them.',
      severity: 'error',
      from: { path: '^functions/shared/' },
      to: { path: '^functions/(?!shared/|definitions/)' },
    },
    {
      name: 'definitions-are-declarations',
      comment:
        'functions/definitions/ declares routes, tables, buckets and environment: plain data the CDK app, the local runtime and every Lambda read; it imports no feature.',
      severity: 'error',
      from: { path: '^functions/definitions/' },
      to: { path: '^functions/(?!definitions/)' },
    },
    {
      name: 'domain-never-imports-deployment-or-commands',
      comment: 'functions/ runs in Lambda and locally alike: it never imports the CDK app (lib/) or the commands and local runtime (bin/).',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(lib|bin|test|console)/' },
    },
    {
      name: 'cdk-never-imports-commands',
      comment: 'lib/ is the CDK app: it may read functions/ definitions, never bin/.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(bin|test|console)/' },
    },
    {
      name: 'composition-root-wires-entries-only',
      comment:
        'functions/composition-root/ builds every store and service from clients, names and settings; only Lambda entries (and bin/) call it, domain code receives what it builds.',
      severity: 'error',
      from: { path: '^functions/', pathNot: ['^functions/composition-root/', '^functions/entries/'] },
      to: { path: '^functions/composition-root/' },
    },
    {
      name: 'lambda-entries-are-leaves',
      comment: 'A Lambda entry (functions/entries/) is only ever bundled, never imported: wiring lives in the composition root.',
      severity: 'error',
      from: { path: '^(functions|lib|bin|schemas|values)/' },
      to: { path: '^functions/entries/' },
    },
    {
      name: 'console-features-stand-alone',
      comment: 'A console feature (events, charts, auth…) never imports another: features are composed in console/src/app (bulletproof-react).',
      severity: 'error',
      from: { path: '^console/src/features/([^/]+)/' },
      to: { path: '^console/src/features/', pathNot: '^console/src/features/$1/' },
    },
    {
      name: 'console-app-on-top',
      comment: 'console/src/app composes features; features and the shared parts never import it.',
      severity: 'error',
      from: { path: '^console/src/(features|components|lib|config)/' },
      to: { path: '^console/src/app/' },
    },
    {
      name: 'console-shared-below-features',
      comment: "The console's shared parts (components, lib, config) serve every feature and import none.",
      severity: 'error',
      from: { path: '^console/src/(components|lib|config)/' },
      to: { path: '^console/src/features/' },
    },
    {
      name: 'console-talks-over-http',
      comment: "The console reaches the service over HTTP only; its client is typed from the OpenAPI document, not from the service's code.",
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(functions|schemas|values|lib|bin)/' },
    },
    {
      name: 'service-never-imports-console',
      comment: 'The service runs without the console; only the local runtime (bin/) serves its built files.',
      severity: 'error',
      from: { path: '^(functions|schemas|values|lib)/' },
      to: { path: '^console/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out)' },
  },
};
