import { describe, expect, it } from 'vitest';
import * as api from './index.ts';

describe('client/index.ts', () => {
  it('when imported, then the public functions are there', () => {
    for (const name of [
      'createTransport',
      'createRetryPolicy',
      'createContentClient',
      'syncItems',
      'reconcile',
      'fetchAssetsSince',
      'createMemoryStore',
      'createSqlStore',
      'openSqlStore',
      'verifyWebhook',
      'signWebhook',
      'createMemoryDeduper',
      'webhookReceiver',
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('when the client package is imported, then it pulls nothing from other project folders', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = new URL('.', import.meta.url).pathname;
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    for (const f of files) {
      const src = readFileSync(join(root, f), 'utf8');
      for (const m of src.matchAll(/from '(\.[^']+)'/g)) {
        const target = new URL(m[1]!, new URL(f, `file://${root}`)).pathname;
        const allowed =
          target.startsWith(root) ||
          target.includes('/generated/') ||
          target.endsWith('/spec/index.ts') ||
          target.endsWith('/spec/json.ts') ||
          target.endsWith('/package.json');
        expect(allowed, `${f} imports ${m[1]}`).toBe(true);
      }
    }
  });
});
