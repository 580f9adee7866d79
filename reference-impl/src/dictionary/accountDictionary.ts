import type { components } from '../../../generated/types.ts';
import type { Queryable } from '../storage/db.ts';
import { getAccountOntologyVersions } from '../storage/dictionary/getAccountOntologyVersions.ts';
import { listUserOrganisations } from '../storage/dictionary/listUserOrganisations.ts';
import { putPropertiesOntology } from '../storage/dictionary/putPropertiesOntology.ts';
import { checkPropertyOntology, type OntologyProblem } from './checkOntology.ts';
import { keepKnownPropertyOntologyFields } from './keepKnownOntologyFields.ts';
import type { AccountOntologies, OntologyCache } from './ontologyCache.ts';

// The dictionary's reads and writes that go past the ontology cache: the organisation → account
// lookup (DICT-007) and the replacement of an account's property ontology (DICT-004).

export interface OntologyWriteDeps {
  db: Queryable;
  ontologies: OntologyCache;
  /** Told after a write: the account's items render live until their stored renderings are renewed. */
  renderings?: { requestRefresh(): void };
}

export type PropertiesOntologyReplacement =
  | { outcome: 'no such account' }
  | { outcome: 'invalid'; problems: OntologyProblem[] }
  /** The stored ontology the way the next GET answers it, with the lastModified the server set. */
  | { outcome: 'stored'; properties: AccountOntologies['properties'] };

/** Every known userorganisation with its account and ontologies, sorted by userorganisation. */
export function userOrganisations(db: Queryable): Promise<components['schemas']['UserOrganisation'][]> {
  return listUserOrganisations(db);
}

/** The property ontology of `accountId` replaced by `body`'s known fields, unless the account is unknown or the ontology has problems. */
export async function replacePropertiesOntology(
  deps: OntologyWriteDeps,
  accountId: string,
  body: Parameters<typeof keepKnownPropertyOntologyFields>[0],
): Promise<PropertiesOntologyReplacement> {
  if ((await getAccountOntologyVersions(deps.db, { accountId })) === undefined) return { outcome: 'no such account' };
  const ontology = keepKnownPropertyOntologyFields(body);
  const problems = checkPropertyOntology(ontology);
  if (problems.length > 0) return { outcome: 'invalid', problems };
  await putPropertiesOntology(deps.db, { accountId, ontology });
  deps.ontologies.invalidate(accountId);
  deps.renderings?.requestRefresh();
  return { outcome: 'stored', properties: (await deps.ontologies.ontologiesForAccount(accountId))!.properties };
}
