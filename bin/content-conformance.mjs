#!/usr/bin/env node
// `npx content-conformance`: runs conformance/cli.ts (see runTypeScriptCli.mjs for older Nodes).
// Exit codes 0 / 1 / 2 are the CLI's, also when it runs under the pinned Node.

import { runTypeScriptCli } from './runTypeScriptCli.mjs';

await runTypeScriptCli({
  name: 'content-conformance',
  entry: new URL('../conformance/cli.ts', import.meta.url),
  launcher: import.meta.url,
});
