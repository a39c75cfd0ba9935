// Four suites: unit (no network, about a minute), bench (the benchmarks' own oracles and options, on
// small data), integration (real emulators, started once in globalSetup), cdk (synthesis assertions
// and cdk-nag). `npm test` runs all four.
const shared = {
  transform: { '^.+\\.(ts|js|mjs)$': '<rootDir>/test/esbuild-transform.cjs' },
  // middy is ESM-only: let the transform turn it into CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testEnvironment: 'node',
};

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/console/src/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
    { ...shared, displayName: 'bench', testMatch: ['<rootDir>/test/bench/**/*.test.ts'] },
    { ...shared, displayName: 'cdk', testMatch: ['<rootDir>/test/cdk/**/*.test.ts'] },
  ],
  // Jest reads testTimeout only at the top level; emulator-backed and synth tests need minutes, not 5 s.
  testTimeout: 120000,
};
