#!/usr/bin/env node
// `npx content-webhooks`: runs client/webhooksCli.ts (see runTypeScriptCli.mjs for older Nodes).

import { runTypeScriptCli } from './runTypeScriptCli.mjs';

await runTypeScriptCli({
  name: 'content-webhooks',
  entry: new URL('../client/webhooksCli.ts', import.meta.url),
  launcher: import.meta.url,
});
