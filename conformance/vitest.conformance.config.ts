// Vitest configuration of a conformance run (started programmatically by conformance/cli.ts,
// never by `npm test`). One worker, one file, tests in order: the suite talks to one target
// with one shared rate limit.

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['conformance/runner/suite.entry.{ts,js}'], // .js in the compiled package
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: true,
    watch: false,
    sequence: { concurrent: false, shuffle: false },
    hookTimeout: 60_000,
    // Reporters are set by the runner (its bridge reporter only).
    reporters: [],
  },
});
