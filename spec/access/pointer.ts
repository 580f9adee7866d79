// JSON pointers (RFC 6901) and local `$ref`s in an OpenAPI document. A pointer is plain
// (`/components/schemas/Error`); a `$ref` is a URI fragment (`#/components/...`), percent-decoded.

export function escapePointer(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

export function unescapePointer(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** `pointer` with `tokens` appended, each escaped. */
export function joinPointer(pointer: string, ...tokens: (string | number)[]): string {
  return pointer + tokens.map((t) => `/${escapePointer(t)}`).join('');
}

/** The pointer a local `$ref` (`#/…`) names; throws on any other reference. */
export function refPointer(ref: string): string {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported (received: ${ref})`);
  return ref
    .slice(1)
    .split('/')
    .map((token) => escapePointer(unescapePointer(decodeURIComponent(token))))
    .join('/');
}

/** The node at `pointer` (a leading `#` is read as a `$ref`), or undefined when there is none. */
export function getAt(root: unknown, pointer: string): unknown {
  const plain = pointer.startsWith('#') ? refPointer(pointer) : pointer;
  let node: unknown = root;
  for (const token of plain.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[unescapePointer(token)];
  }
  return node;
}

const MAX_HOPS = 32;

/** Follows a chain of local `$ref`s from `node` (found at `pointer`): the target and its pointer. */
export function resolveLocal<T = any>(root: unknown, node: unknown, pointer = ''): { value: T; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    const ref = (current as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string') return { value: current as T, pointer: at };
    at = refPointer(ref);
    current = getAt(root, at);
    if (current === undefined) throw new Error(`unresolvable $ref ${ref} (from ${pointer || 'the root'})`);
  }
  throw new Error(`$ref chain longer than ${MAX_HOPS} at ${pointer || 'the root'}`);
}

/** Follows a chain of local `$ref`s from `node` to the node it names. */
export function resolveRef<T = any>(root: unknown, node: unknown): T {
  return resolveLocal<T>(root, node).value;
}
