// Secrets never reach a report: tokens are replaced by the environment variable that holds
// them, signing secrets and token values in bodies by a placeholder.

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
// JSON members whose values are credentials (DEC-AUTH-006 `token`, TOKEN-002 `signingSecret`, sign-in).
const SECRET_MEMBER_RE =
  /("(?:signingSecret|token|access_token|refresh_token|password|secret|client_secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const MIN_SECRET_LENGTH = 6;

export interface Redactor {
  /** Remember a secret value; every later text containing it shows `label` instead. */
  addSecret(value: string | undefined, label: string): void;
  text(value: string): string;
  headers(headers: Record<string, string>): Record<string, string>;
}

export function createRedactor(): Redactor {
  const secrets = new Map<string, string>();
  const sorted = (): [string, string][] => [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);

  function text(value: string): string {
    let out = value;
    for (const [secret, label] of sorted()) out = out.split(secret).join(label);
    return out.replace(SECRET_MEMBER_RE, '$1"<redacted>"');
  }

  function headerValue(name: string, value: string): string {
    if (!SECRET_HEADERS.has(name.toLowerCase())) return text(value);
    const redacted = text(value);
    if (redacted !== value) return redacted; // a known token: shows its variable name
    const scheme = /^(\w+)\s/.exec(value)?.[1];
    return scheme ? `${scheme} <redacted>` : '<redacted>';
  }

  return {
    addSecret(value, label) {
      if (value && value.length >= MIN_SECRET_LENGTH) secrets.set(value, label);
    },
    text,
    headers(headers) {
      return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, headerValue(k, v)]));
    },
  };
}
