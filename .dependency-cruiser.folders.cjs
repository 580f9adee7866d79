// Folder cycles of the production code of the reference service (e.g. http/ ↔ auth/) and of the
// conformance suite (e.g. model/ ↔ engine/runtime/). Tests, harnesses and fixtures are left out,
// so a test importing a harness ties no folders together. Run by `npm run lint` (lint:imports) on
// reference-impl/ and conformance/; any cycle fails.
const base = require('./.dependency-cruiser.cjs');
const testFiles = base.forbidden.find((rule) => rule.name === 'no-test-support-in-production').to.path;

module.exports = {
  forbidden: [
    {
      name: 'no-circular-folders',
      comment: 'No import cycles between folders of the service, even through acyclic files.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'conformance-model-imports-nothing',
      comment:
        'conformance/model/ (Check, Failure, Exchange, outcomes) is the bottom layer: it imports nothing else of the suite (the engine fills the check context slot by augmentation).',
      severity: 'error',
      from: { path: '^conformance/model/' },
      to: { path: '^conformance/(?!model/)' },
    },
  ],
  options: { ...base.options, exclude: { path: `(${base.options.exclude.path}|${testFiles})` } },
};
