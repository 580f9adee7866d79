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

const localRefOf = (node: unknown): string | undefined => {
  const ref = (node as { $ref?: unknown } | null | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith('#') ? ref : undefined;
};

/**
 * The node a local `$ref` of `node` names (one hop), or undefined when `node` has none. The one
 * place a `$ref` becomes a node: tree walks that follow references themselves hop with this.
 */
export function refTarget(root: unknown, node: unknown): unknown {
  const ref = localRefOf(node);
  if (ref === undefined) return undefined;
  const target = getAt(root, ref);
  if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

/** What a `$ref` chain leads to, and the keywords written beside each `$ref` on the way. */
export interface ResolvedRef<T> {
  value: T;
  /** JSON pointer of `value`. */
  pointer: string;
  /** The siblings of each `$ref` followed (OpenAPI 3.1 applies them too), outermost first. */
  siblings: Record<string, unknown>[];
}

/** Follows a chain of local `$ref`s from `node` (found at `pointer`), keeping each hop's siblings. */
export function resolveLocal<T = any>(root: unknown, node: unknown, pointer = ''): ResolvedRef<T> {
  let current = node;
  let at = pointer;
  const siblings: Record<string, unknown>[] = [];
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    const ref = (current as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== 'string') return { value: current as T, pointer: at, siblings };
    const { $ref: _followed, ...beside } = current as Record<string, unknown>;
    if (Object.keys(beside).length > 0) siblings.push(beside);
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
