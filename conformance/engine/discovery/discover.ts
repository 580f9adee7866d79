// The first phase of a run: find the target's choices where the interface says "not shown"
// (see variants.ts), unless the vendor declared them. Each probe decides what it can; a probe
// that cannot decide leaves the default. Probe data is tagged with the run id and removed again.
//
//   const variants = await discoverVariants(config);   // config.declaredVariants win

import type { ConformanceConfig } from '../../config/config.ts';
import { createHttpClient } from '../../http/httpClient.ts';
import type { TokenChoice } from '../../http/httpClient.ts';
import { createRedactor } from '../../http/redact.ts';
import type { ProbeContext, ProbeFinding } from './probe.ts';
import { probeCredentials, probeSession } from './probeAuth.ts';
import { probeItems } from './probeItems.ts';
import { probeAssetFirstPage, probeListFirstPage, probeUserOrganisations } from './probeReads.ts';
import { probeTokenFilter, probeTokenIdField } from './probeTokens.ts';
import type { ResolvedVariants, TargetVariants, VariantName } from '../../model/variants.ts';
import { DEFAULT_VARIANTS, resolveVariants } from '../../model/variants.ts';
import { userOrganisationEntries } from '../../model/userOrganisations.ts';

function writerToken(config: ConformanceConfig): TokenChoice | undefined {
  if (config.tokens.full) return 'full';
  if (config.tokens.admin) return 'admin';
  if (config.tokens.consumer) return 'consumer';
  return undefined;
}

export async function discoverVariants(config: ConformanceConfig): Promise<ResolvedVariants> {
  const declared = config.declaredVariants ?? {};
  if (!config.baseUrl) return resolveVariants(declared, {});
  const writer = writerToken(config);
  if (writer === undefined) {
    const notes: Partial<Record<VariantName, string>> = {};
    for (const name of Object.keys(DEFAULT_VARIANTS) as VariantName[])
      notes[name] = declared[name] === undefined ? 'not probed: no token was given' : 'declared in the config file';
    return resolveVariants(declared, {}, notes);
  }
  const redactor = createRedactor();
  redactor.addSecret(config.tokens.sessionPassword, '$CONFORMANCE_SESSION_PASSWORD');
  const http = createHttpClient({
    baseUrl: config.baseUrl!,
    tokens: config.tokens,
    redactor,
    record: () => {},
    timeoutMs: config.timeoutMs,
    retryAfterCapMs: config.retryAfterCapMs,
  });
  const cleanups: { description: string; action: () => Promise<void> }[] = [];
  let n = 0;
  const ctx: ProbeContext = {
    http,
    config,
    tag: (label) => `${config.runId}-${label}-${++n}`,
    writer,
    cleanup: (description, action) => cleanups.push({ description, action }),
  };
  const found: Partial<TargetVariants> = {};
  const notes: Partial<Record<VariantName, string>> = {};
  const take = (f: ProbeFinding) => {
    Object.assign(found, f.found);
    Object.assign(notes, f.notes);
  };
  const wanted = (...names: VariantName[]) => names.some((name) => declared[name] === undefined);
  try {
    const orgs = await probeUserOrganisations(ctx);
    take(orgs);
    const shape = declared.userOrganisationsShape ?? orgs.found.userOrganisationsShape ?? 'array';
    const own = userOrganisationEntries(orgs.body, shape).find((o) => o.accountId === config.accountId);
    if (wanted('assetFirstPage')) take(await probeAssetFirstPage(ctx));
    if (wanted('listFirstPage')) take(await probeListFirstPage(ctx));
    if (wanted('credentialStatuses', 'errorBodies')) take(await probeCredentials(ctx));
    // Writes only when the profile writes at all (the consumer profile is read-only).
    if (config.profile !== 'consumer') {
      if (wanted('createdItem', 'updatePath', 'statusMoves')) take(await probeItems(ctx, own?.userorganisation));
      if (wanted('tokenIdField')) take(await probeTokenIdField(ctx));
      if (wanted('tokenFilter'))
        take(
          await probeTokenFilter(
            ctx,
            own?.userorganisation,
            declared.tokenIdField ?? found.tokenIdField ?? DEFAULT_VARIANTS.tokenIdField,
          ),
        );
    } else {
      for (const name of ['createdItem', 'updatePath', 'statusMoves', 'tokenIdField', 'tokenFilter'] as const)
        notes[name] = 'not probed: the consumer profile writes nothing';
    }
    if (wanted('signIn', 'logoutMethod')) take(await probeSession(ctx));
  } finally {
    for (const { action } of cleanups.reverse()) await action().catch(() => {});
    await http.close().catch(() => {});
  }
  for (const name of Object.keys(declared) as VariantName[]) notes[name] = 'declared in the config file';
  return resolveVariants(declared, found, notes);
}
