// `npm run conformance -- …` / `npx content-conformance …`. See --help, and conformance/README.md.

import { resolve } from 'node:path';
import process from 'node:process';
import { ConfigError, PACKAGE_ROOT, resolveConfig } from './config/config.ts';
import { helpText } from './config/options.ts';
import { suiteVersion } from './version.ts';

// The run and verify-report modules load on demand: --help and --version stay fast.
const EXIT = { pass: 0, fail: 1, cannotRun: 2 } as const;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'receiver') return (await import('./receiverCert/cli.ts')).receiverMain(argv.slice(1), env, process);
  const version = await suiteVersion();
  let command;
  try {
    command = await resolveConfig(argv, env, process.cwd());
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`content-conformance: could not run: ${error.message}\n`);
      return EXIT.cannotRun;
    }
    throw error;
  }
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${helpText(version)}\n`);
      return EXIT.pass;
    case 'version': {
      // The contract the suite checks against by default: its SHA-256 is the one every report prints.
      const { loadSpec } = await import('../spec/index.ts');
      const spec = loadSpec(resolve(PACKAGE_ROOT, 'generated/openapi.json'));
      process.stdout.write(`${version}\nspec sha256 ${spec.sha256}\n`);
      return EXIT.pass;
    }
    case 'verify-report': {
      const { verifyReportFile } = await import('./reporters/verifyReport.ts');
      const outcome = await verifyReportFile(command.file, version).catch((e: Error) => ({
        ok: false,
        message: e.message,
      }));
      (outcome.ok ? process.stdout : process.stderr).write(`${command.file}: ${outcome.message}\n`);
      return outcome.ok ? EXIT.pass : EXIT.fail;
    }
    case 'run': {
      const { runConformance } = await import('./runner/runConformance.ts');
      const color = command.config.color && Boolean((process.stdout as { isTTY?: boolean }).isTTY);
      return runConformance({ ...command.config, color }, { stdout: process.stdout, stderr: process.stderr });
    }
  }
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
