import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { constantsModule, readConstants } from './constants.ts';

const dereferenced = JSON.parse(
  readFileSync(new URL('../../generated/openapi.dereferenced.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/** A deep copy of the spec with one change applied. */
function changed(edit: (doc: any) => void): Record<string, unknown> {
  const copy = structuredClone(dereferenced);
  edit(copy);
  return copy;
}

describe('readConstants', () => {
  it('when read from the spec, then the collections, size and rate-limited operations are the contract values', () => {
    const c = readConstants(dereferenced);
    expect(c.collections).toEqual({
      events: 'EVENEMENT',
      locations: 'LOCATIE',
      venues: 'VENUE',
      eventgroups: 'EVENTGROUP',
      routes: 'ROUTE',
    });
    expect(c.pageSize).toEqual({ minimum: 1, maximum: 2000, default: 20 });
    expect(c.assetsPageSize).toEqual({ minimum: 1, maximum: 1000, default: 20 });
    expect(c.deliveriesPageSize).toEqual({ minimum: 1, maximum: 100, default: 20 });
    expect(c.rateLimit).toEqual({ perSecond: 20, burst: 40 });
    expect(c.webhookMaxItems).toBe(100);
    expect(c.rateLimitedOperations).toContain('getDictionary');
    expect(c.rateLimitedOperations).not.toContain('getEvent');
    expect(c.webhookHeaders.signature).toBe('X-Service-Signature');
  });

  it('when the spec changes a value, then the constant follows it', () => {
    const c = readConstants(
      changed((doc) => {
        doc.components.parameters.Size.schema.default = 50;
        doc.paths['/events/{id}'].get['x-rate-limited'] = true;
      }),
    );
    expect(c.pageSize.default).toBe(50);
    expect(c.rateLimitedOperations).toContain('getEvent');
  });

  it('when a value the constants are read from is gone, then generation fails naming it', () => {
    expect(() => readConstants(changed((doc) => delete doc.components.parameters.Size.schema.default))).toThrow(
      /Size default/,
    );
    expect(() =>
      readConstants(changed((doc) => delete doc.components.parameters.XServiceTimestamp['x-tolerance-seconds'])),
    ).toThrow(/x-tolerance-seconds/);
    expect(() =>
      readConstants(changed((doc) => delete doc.components.responses.TooManyRequests['x-rate-limit'])),
    ).toThrow(/x-rate-limit/);
    expect(() => readConstants(changed((doc) => delete doc.paths['/venues']))).toThrow(/no collection lists VENUE/);
    expect(() => readConstants(changed((doc) => delete doc.webhooks.RouteDeleted))).toThrow(
      /no webhook RouteDeleted for resource type ROUTE/,
    );
    expect(() =>
      readConstants(changed((doc) => delete doc.components.schemas.ResourceType['x-resources'].VENUE)),
    ).toThrow(/x-resources VENUE/);
  });

  it('when read from the spec, then each entity type has its webhook resource type and event name [HOOK-001] [HOOK-005]', () => {
    const c = readConstants(dereferenced);
    expect(c.resourceTypes).toEqual({
      EVENEMENT: 'EVENT',
      LOCATIE: 'LOCATION',
      ROUTE: 'ROUTE',
      EVENTGROUP: 'EVENTGROUP',
      VENUE: 'VENUE',
    });
    expect(c.eventNames).toEqual({
      EVENEMENT: 'Event',
      LOCATIE: 'Location',
      ROUTE: 'Route',
      EVENTGROUP: 'EventGroup',
      VENUE: 'Venue',
    });
  });

  it('when the spec gains a workflow status, then it is listed and named by itself', () => {
    const text = constantsModule(changed((doc) => doc.components.schemas.WfStatus.enum.push('onhold')));
    expect(text).toMatch(/WORKFLOW_STATUSES = \[[^\]]*"onhold"\n\] as const/);
    expect(text).toMatch(/WORKFLOW_STATUS = \{[^}]*"onhold": "onhold"\n\} as const/);
    expect(text).toMatch(/ENTITY_TYPE = \{[^}]*"EVENEMENT": "EVENEMENT",/);
  });
});
