import { describe, expect, it } from 'vitest';
import { userOrganisationEntries } from './userOrganisations.ts';
import { DEFAULT_VARIANTS, describeVariants, resolveVariants, variantsOf } from './variants.ts';

describe('resolveVariants', () => {
  it('when nothing is declared or discovered, then every variant is the default with source default', () => {
    const resolved = resolveVariants(undefined, {});
    expect(resolved.values).toEqual(DEFAULT_VARIANTS);
    expect(new Set(Object.values(resolved.sources))).toEqual(new Set(['default']));
  });

  it('when a variant is both declared and discovered, then the declared value wins', () => {
    const resolved = resolveVariants({ updatePath: 'detail' }, { updatePath: 'collection', assetFirstPage: 1 });
    expect(resolved.values.updatePath).toBe('detail');
    expect(resolved.sources.updatePath).toBe('declared');
    expect(resolved.values.assetFirstPage).toBe(1);
    expect(resolved.sources.assetFirstPage).toBe('discovered');
  });

  it('when one status move is declared, then the others keep what discovery found', () => {
    const resolved = resolveVariants(
      { statusMoves: { deleted: 'unsupported' } as never },
      { statusMoves: { rejected: 'put', archived: 'put', deleted: 'put' } },
    );
    expect(resolved.values.statusMoves).toEqual({ rejected: 'put', archived: 'put', deleted: 'unsupported' });
  });

  it('when one token filter field is declared over a discovered unsupported, then the other keeps our name', () => {
    const resolved = resolveVariants(
      { tokenFilter: { organisationsField: 'orgs' } as never },
      { tokenFilter: 'unsupported' },
    );
    expect(resolved.values.tokenFilter).toEqual({ organisationsField: 'orgs', statusesField: 'wfstatus' });
    expect(resolved.sources.tokenFilter).toBe('declared');
  });

  it('when the token filter is declared unsupported, then the word replaces the default shape', () => {
    const resolved = resolveVariants({ tokenFilter: 'unsupported' }, {});
    expect(resolved.values.tokenFilter).toBe('unsupported');
    expect(describeVariants(resolved).find((l) => l.name === 'tokenFilter')?.value).toBe('unsupported');
  });

  it('when the variants are described, then each line names its value and source', () => {
    const lines = describeVariants(resolveVariants(undefined, { signIn: { userField: 'login', passwordField: 'pw' } }));
    expect(lines.find((l) => l.name === 'signIn')).toEqual({
      name: 'signIn',
      value: 'userField=login, passwordField=pw',
      source: 'discovered',
    });
  });

  it('when a context has no resolved variants (unit tests), then checks see the defaults', () => {
    expect(variantsOf({ config: {} })).toEqual(DEFAULT_VARIANTS);
  });
});

describe('userOrganisationEntries', () => {
  it('when the answer is a map keyed by organisation, then each key becomes an entry', () => {
    const entries = userOrganisationEntries({ amsterdam: { accountId: 'ams', ontology: {} }, utrecht: 'utr' }, 'map');
    expect(entries).toEqual([
      { userorganisation: 'amsterdam', accountId: 'ams', ontology: {} },
      { userorganisation: 'utrecht', accountId: 'utr' },
    ]);
  });

  it('when the answer does not have the expected layout, then there are no entries', () => {
    expect(userOrganisationEntries({ a: 1 }, 'array')).toEqual([]);
    expect(userOrganisationEntries([{ userorganisation: 'a', accountId: 'b' }], 'map')).toEqual([]);
  });
});
