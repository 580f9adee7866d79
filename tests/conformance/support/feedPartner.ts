// Wires the reference service's inbound feed to the conformance suite's partner endpoint, the
// way a vendor would: a certificate for the partner (generated here, before the service starts,
// so that the feed can trust it), a FEEDS_FILE in the service's format
// (reference-impl/src/feeds/feeds.yaml) whose feed fetches https://127.0.0.1:<port>/feed.json
// with that certificate as caFile, and the suite options that serve the partner on that port.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadPartnerTls, PARTNER_CERT_FILE, PARTNER_KEY_FILE } from '../../../conformance/partner/partnerTls.ts';

/** The feed of the harness: id as the suite's --feed-id, a name of its own (externalId prefix). */
export const HARNESS_FEED = {
  id: 'uitagenda-amsterdam',
  name: 'uitagenda',
  accountId: 'amsterdam',
  userorganisation: 'amsterdam-marketing',
  subFeed: 'conformance',
} as const;

export interface FeedWiring {
  port: number;
  /** FEEDS_FILE for the reference service. */
  feedsFile: string;
  /** Suite options: --feed-id and the partner endpoint with its certificate. */
  args: string[];
  remove(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function wireFeed(): Promise<FeedWiring> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-feed-'));
  const port = await freePort();
  const url = `https://127.0.0.1:${port}/feed.json`;
  await loadPartnerTls({ host: '127.0.0.1', port, url }, dir);
  const feedsFile = join(dir, 'feeds.yaml');
  await writeFile(
    feedsFile,
    stringify({
      feeds: [
        {
          id: HARNESS_FEED.id,
          name: HARNESS_FEED.name,
          accountId: HARNESS_FEED.accountId,
          userorganisation: HARNESS_FEED.userorganisation,
          url,
          subFeeds: [{ feedInfoId: HARNESS_FEED.subFeed }],
          caFile: PARTNER_CERT_FILE,
        },
      ],
    }),
  );
  return {
    port,
    feedsFile,
    args: [
      '--feed-id',
      HARNESS_FEED.id,
      '--feed-info-id',
      HARNESS_FEED.subFeed,
      '--feed-partner-port',
      String(port),
      '--feed-partner-cert',
      join(dir, PARTNER_CERT_FILE),
      '--feed-partner-key',
      join(dir, PARTNER_KEY_FILE),
    ],
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
