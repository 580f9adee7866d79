import { loadSpec } from '../../../spec/index.ts';

// The bundled spec (generated/openapi.json) is the single source of truth for request
// validation. Read once through the spec package; nothing here writes it.

export type JsonObject = Record<string, unknown>;

let cached: JsonObject | undefined;

export function loadOpenApiDocument(): JsonObject {
  cached ??= loadSpec().document;
  return cached;
}
