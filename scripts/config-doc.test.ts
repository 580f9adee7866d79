import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from '../reference-impl/src/config.ts';
import { DEPLOYMENT_DOC, renderConfigTable, withConfigTable } from './config-doc.ts';
import { repoRoot } from './lib/run.ts';

describe('the configuration table of docs/deployment.md', () => {
  const doc = fs.readFileSync(path.join(repoRoot, DEPLOYMENT_DOC), 'utf8');

  it('when the doc is rebuilt from the table of variables, then nothing changes (it is in sync)', () => {
    expect(withConfigTable(doc)).toBe(doc);
  });

  it('when rendered, then each variable has one row with its name, default, meaning and advice', () => {
    const rows = renderConfigTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `([A-Z_]+)` \|/.exec(row)?.[1])).toEqual(VARIABLES.map((v) => v.name));
    expect(rows[0]).toBe(
      '| `PORT` | `8080` | TCP port to listen on (`0`: any free port). | The port the load balancer targets. |',
    );
    expect(rows.find((row) => row.startsWith('| `ASSET_MAX_BYTES`'))).toContain('| `20MiB` |');
  });

  it('when a row in the doc differs from the table, then the rebuilt doc differs (generate:check fails)', () => {
    const stale = doc.replace('| `PORT` | `8080` |', '| `PORT` | `80` |');
    expect(stale).not.toBe(doc);
    expect(withConfigTable(stale)).toBe(doc);
  });

  it('when the markers are missing, then it refuses to write', () => {
    expect(() => withConfigTable('# Deploying\n\nno table here\n')).toThrow('lacks the markers');
  });

  it('when the doc is rebuilt, then the prose around the table is kept', () => {
    const rebuilt = withConfigTable(doc, '| table |');
    expect(rebuilt.startsWith(doc.slice(0, doc.indexOf('<!-- BEGIN configuration table')))).toBe(true);
    expect(rebuilt.endsWith(doc.slice(doc.indexOf('<!-- END configuration table')))).toBe(true);
    expect(rebuilt).toContain('\n| table |\n');
  });
});
