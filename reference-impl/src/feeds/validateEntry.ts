import { createValidatorFactory, type ErrorObject } from '../../../spec/index.ts';
import type { Collection } from '../domain/entityRules.ts';
import { loadOpenApiDocument, type JsonObject } from '../http/openapiDocument.ts';

// Each partner entry is checked against the spec's own write schema of its collection
// (EventDraft, LocationDraft, …): a feed entry is held to the same contract as a POST body.

const MAX_PROBLEMS = 5;

const DRAFT_SCHEMAS: Record<Collection, string> = {
  events: 'EventDraft',
  locations: 'LocationDraft',
  venues: 'VenueDraft',
  eventgroups: 'EventGroupDraft',
  routes: 'RouteDraft',
};

/** Null when `body` is a valid write body of `collection`, else one sentence naming the problems. */
export type EntryValidator = (collection: Collection, body: unknown) => string | null;

export function createEntryValidator(doc: JsonObject = loadOpenApiDocument()): EntryValidator {
  const schemaAt = createValidatorFactory(doc);
  return function validateEntry(collection, body) {
    const validate = schemaAt(`/components/schemas/${DRAFT_SCHEMAS[collection]}`);
    return validate(body) ? null : describeErrors(validate.errors ?? []);
  };
}

function describeErrors(errors: readonly ErrorObject[]): string {
  const problems: string[] = [];
  for (const error of errors) {
    // Summaries of oneOf/anyOf repeat what their branches said.
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if') continue;
    const at = error.instancePath === '' ? '(root)' : error.instancePath;
    const params = error.params as {
      unevaluatedProperty?: string;
      additionalProperty?: string;
      allowedValues?: unknown[];
    };
    const unknown = params.unevaluatedProperty ?? params.additionalProperty;
    const problem =
      unknown !== undefined
        ? `${error.instancePath}/${unknown} is not a field of this entity type`
        : error.keyword === 'enum'
          ? `${at} must be one of ${(params.allowedValues ?? []).map(String).join(', ')}`
          : `${at} ${error.message ?? 'is invalid'}`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  if (problems.length === 0) return 'the entry is invalid';
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  return problems.length > MAX_PROBLEMS ? `${shown}; and ${problems.length - MAX_PROBLEMS} more` : shown;
}
