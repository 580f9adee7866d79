// `HOOK-*`, `auth.*`, `rate-limit`: the patterns of --only, --skip and expected-failure files.
// `*` matches any run of characters, `?` one; matching ignores letter case.

export function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 'i');
}

export function matchesAny(patterns: readonly string[], values: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    const re = globToRegExp(pattern);
    if (values.some((v) => re.test(v))) return pattern;
  }
  return undefined;
}
