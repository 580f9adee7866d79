import { defineConfig } from 'vitest/config';

// One runner for the whole repository. Tests sit beside the code they test
// (`*.test.ts`); the service's cross-cutting suites live in `reference-impl/test/`, the tests
// that span packages (contract, conformance, client against the service) in `tests/`.
export default defineConfig({
  test: {
    include: ['{spec,reference-impl,conformance,client,mock,scripts,tests}/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'conformance/checks/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
