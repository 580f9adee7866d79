// RFC 6901 JSON pointers and local `$ref` resolution in an OpenAPI document.

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function joinPointer(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((t) => `/${escapeToken(String(t))}`).join('');
}

export function getAt(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '#') return root;
  const path = pointer.replace(/^#/, '');
  let node: unknown = root;
  for (const raw of path.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[unescapeToken(raw)];
  }
  return node;
}

/** Follows a chain of local `$ref`s; returns the target and its pointer (without `#`). */
export function resolveLocal<T = unknown>(
  root: unknown,
  value: unknown,
  pointer: string,
): { value: T; pointer: string } {
  let current = value;
  let at = pointer;
  for (let hops = 0; hops < 32; hops++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string') return { value: current as T, pointer: at };
    if (!ref.startsWith('#')) throw new Error(`only local $ref is supported in the bundled spec (at ${at}: ${ref})`);
    at = ref.slice(1);
    current = getAt(root, at);
    if (current === undefined) throw new Error(`unresolvable $ref ${ref} (at ${pointer})`);
  }
  throw new Error(`$ref chain too long at ${pointer}`);
}
