// Folder cycles of the reference service's production code (e.g. http/ ↔ auth/). Tests, harnesses
// and fixtures are left out, so a test importing a harness ties no folders together.
// Run by `npm run lint` (lint:imports); any cycle fails.
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
  ],
  options: { ...base.options, exclude: { path: `(${base.options.exclude.path}|${testFiles})` } },
};
