// Secrets the interface shows once (a token's signingSecret, DEC-AUTH-006's token value) must
// never appear in a later answer (TOKEN-002). A check registers such a value with
// ctx.watchSecret; from then on every response of the run is scanned for it, unredacted,
// before the check sees it, and each sighting is kept with its (redacted) exchange.

import type { Exchange } from '../../model/exchange.ts';
import type { HttpResponse } from '../../http/httpClient.ts';

export interface SecretSighting {
  /** The check whose request got the answer. */
  checkId: string;
  /** The label given to watchSecret (never the value). */
  label: string;
  /** `body` or `header <name>`. */
  where: string;
  exchange: Exchange;
}

export interface SecretWatch {
  watch(value: string, label: string): void;
  scan(checkId: string, response: Pick<HttpResponse, 'text' | 'headers' | 'exchange'>): void;
  readonly sightings: readonly SecretSighting[];
}

/** Values shorter than this are not watched: they would match by chance. */
const MIN_LENGTH = 12;

export function createSecretWatch(): SecretWatch {
  const watched = new Map<string, string>();
  const sightings: SecretSighting[] = [];
  return {
    watch(value, label) {
      if (value.length >= MIN_LENGTH) watched.set(value, label);
    },
    scan(checkId, response) {
      for (const [value, label] of watched) {
        const places: string[] = [];
        if (response.text.includes(value)) places.push('body');
        for (const [name, header] of Object.entries(response.headers))
          if (header.includes(value)) places.push(`header ${name}`);
        for (const where of places) sightings.push({ checkId, label, where, exchange: response.exchange });
      }
    },
    get sightings() {
      return sightings;
    },
  };
}
