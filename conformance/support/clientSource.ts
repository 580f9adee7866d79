// The client library's typed client (createContentClient) with the suite's HTTP client under it:
// every request the client's procedures make (syncItems, reconcile) is recorded as the check's
// evidence, sent with the check's token and validated against the spec like any other.

import { createContentClient } from '../../client/index.ts';
import type { ContentClient, FetchFunction } from '../../client/index.ts';
import type { TokenChoice } from '../http/httpClient.ts';
import type { CheckContext } from '../engine/runtime/context.ts';

export function suiteFetch(ctx: Pick<CheckContext, 'http'>, token: TokenChoice): FetchFunction {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (name !== 'authorization') headers[name] = value;
    });
    const res = await ctx.http.request(request.method, request.url, { token, headers, body });
    const empty = res.status === 204 || res.status === 304 || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(res.bytes), { status: res.status, headers: res.headers });
  };
}

/** The client library's content client against the target, through the suite's HTTP client. */
export function suiteClient(ctx: Pick<CheckContext, 'http' | 'config'>, token: TokenChoice): ContentClient {
  return createContentClient({ baseUrl: ctx.config.baseUrl!, fetch: suiteFetch(ctx, token) });
}
