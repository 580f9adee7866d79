#!/usr/bin/env node
// `npx content-sync`: runs client/cli.ts (see runTypeScriptCli.mjs for older Nodes).

import { runTypeScriptCli } from './runTypeScriptCli.mjs';

await runTypeScriptCli({
  name: 'content-sync',
  entry: new URL('../client/cli.ts', import.meta.url),
  launcher: import.meta.url,
});
