// openapi-fetch reads JSON bodies with JSON.parse, which on Node 24 and 26 can lose escaped member
// names (nodejs/node#63785; spec/json.ts). Each method of the client here takes such a body as
// text and reads it with parseJson instead; a call that asks for another `parseAs` is left alone.
// Error bodies are openapi-fetch's own reading.

import type { Client } from 'openapi-fetch';
import { parseJson } from '../../spec/json.ts';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const;

interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}
type Call = (...args: unknown[]) => Promise<Answer>;

/** `call` with the options at `optionsAt`: a JSON body comes back read by parseJson. */
function readingJson(call: Call, optionsAt: number): Call {
  return async (...args) => {
    const options = args[optionsAt] as { parseAs?: string } | undefined;
    if (options?.parseAs !== undefined && options.parseAs !== 'json') return call(...args);
    const asText = [...args];
    asText[optionsAt] = { ...options, parseAs: 'text' };
    const answer = await call(...asText);
    if (typeof answer.data !== 'string') return answer;
    // As openapi-fetch: an empty body is no data.
    return { ...answer, data: answer.data === '' ? undefined : parseJson(answer.data) };
  };
}

/** The client, its methods reading JSON bodies with parseJson. */
export function withJsonBodiesByParseJson<Paths extends {}>(client: Client<Paths>): Client<Paths> {
  const methods = client as unknown as Record<string, Call>;
  for (const method of METHODS) methods[method] = readingJson(methods[method]!.bind(client), 1);
  methods.request = readingJson(methods.request!.bind(client), 2);
  return client;
}
