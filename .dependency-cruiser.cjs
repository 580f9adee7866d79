// Import rules of ARCHITECTURE.md, checked by `npm run lint` (lint:imports); any violation fails.
// Folder cycles of the service: .dependency-cruiser.folders.cjs.

// Files that exist only for tests: test files, harnesses, fakes, fixtures, cross-cutting suites.
const TEST =
  '(\\.test\\.ts$|/testing/|/fixtures/|^reference-impl/test/|^client/integration/|^conformance/selftest/|^tests/)';
const SRC = '^reference-impl/src/';
// The service modules between the routes and storage.
const SERVICES = `${SRC}(assets|auth|cache|dictionary|exports|feeds|items|maintenance|ratelimit|seed|sessions|tokens|webhooks)/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, between files or (through them) between folders.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'generated-imports-nothing',
      comment: 'generated/ is written by `npm run generate` and imports nothing of ours.',
      severity: 'error',
      from: { path: '^generated/' },
      to: { path: '^(reference-impl|client|conformance|mock|scripts|tests|spec|docs)/' },
    },
    {
      name: 'client-imports-generated-only',
      comment: 'client/ (and its tests) may import generated/ only.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^(reference-impl|conformance|mock|scripts|tests)/' },
    },
    {
      name: 'reference-impl-imports-generated-only',
      comment: 'reference-impl/ (and its tests) may import generated/ only.',
      severity: 'error',
      from: { path: '^reference-impl/' },
      to: { path: '^(client|conformance|mock|scripts|tests)/' },
    },
    {
      name: 'conformance-never-imports-reference-impl',
      comment: 'The suite knows a deployment only through HTTP: generated/ and client/ only.',
      severity: 'error',
      from: { path: '^conformance/' },
      to: { path: '^(reference-impl|mock|scripts|tests)/' },
    },
    {
      name: 'mock-imports-generated-only',
      severity: 'error',
      from: { path: '^mock/' },
      to: { path: '^(reference-impl|client|conformance|scripts|tests)/' },
    },
    {
      name: 'ajv-only-in-spec',
      comment:
        'One ajv set-up: every package validates through @content-service/spec (spec/index.ts), never its own ajv.',
      severity: 'error',
      from: { pathNot: '^spec/' },
      to: { path: '^node_modules/(ajv|ajv-formats)/' },
    },
    {
      name: 'no-test-support-in-production',
      comment:
        'Production code (the packages) never imports tests, harnesses, fakes or fixtures. scripts/ is not shipped: like tests/, it may import anything (the bench and load tools drive the service through its test harness).',
      severity: 'error',
      from: { path: '^(reference-impl|client|conformance|mock)/', pathNot: TEST },
      to: { path: TEST },
    },
    {
      name: 'src-holds-only-production-code',
      comment:
        'Every file under reference-impl/src/ but the tests is reached from main.ts: harnesses, fakes and fixtures live in reference-impl/test/.',
      severity: 'error',
      from: { path: `${SRC}main\\.ts$` },
      to: { path: SRC, pathNot: TEST, reachable: false },
    },
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds pure rules: it imports only domain/ (never http/, storage or services).',
      severity: 'error',
      from: { path: `${SRC}domain/`, pathNot: TEST },
      to: { path: SRC, pathNot: `${SRC}domain/` },
    },
    {
      name: 'routes-call-services-not-storage',
      comment: 'Layers: routes → services → storage. Route handlers never reach storage.',
      severity: 'error',
      from: { path: `${SRC}routes/`, pathNot: TEST },
      to: { path: `${SRC}storage/` },
    },
    {
      name: 'storage-is-the-bottom-layer',
      comment: 'storage/ may import domain/ and config, never routes, http or the services.',
      severity: 'error',
      from: { path: `${SRC}storage/`, pathNot: TEST },
      to: { path: `(${SERVICES}|${SRC}routes/|${SRC}http/|${SRC}(app|server|main)\\.ts$)` },
    },
    {
      name: 'services-never-import-routes',
      comment: 'Only the composition (app.ts) mounts route modules.',
      severity: 'error',
      from: { path: `(${SERVICES}|${SRC}storage/|${SRC}domain/|${SRC}http/)`, pathNot: TEST },
      to: { path: `${SRC}routes/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(data|reports|docs/build)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
