import ipaddr from 'ipaddr.js';
import { formatTimestamp, parseInstant } from './domain/timestamps.ts';

// How a configuration value is written: the units, and one kind per sort of value, each parsing
// the text of a variable and formatting a value back into text that parses to it again.

export const MILLISECOND = 1;
export const SECOND = 1000 * MILLISECOND;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

export interface Kind<T> {
  /** The value written in `text`; throws an Error saying what was expected. */
  parse(text: string): T;
  /** The text of `value`, as a variable would hold it. */
  format(value: T): string;
}

export const text: Kind<string> = { parse: (value) => value, format: (value) => value };

export const port: Kind<number> = {
  parse(value) {
    if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new Error('expected an integer 0…65535');
    return Number(value);
  },
  format: String,
};

export function integer(min: number, max: number): Kind<number> {
  return {
    parse(value) {
      if (!/^\d{1,13}$/.test(value) || Number(value) < min || Number(value) > max)
        throw new Error(`expected an integer ${min}…${max}`);
      return Number(value);
    },
    format: String,
  };
}

/** An absolute URL with one of `protocols` (such as `postgres:`), kept as written. */
export function url(protocols: readonly string[]): Kind<string> {
  return {
    parse(value) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(value);
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined || !protocols.includes(parsed.protocol))
        throw new Error(`expected an absolute ${protocols.join(' or ')} URL`);
      return value;
    },
    format: (value) => value,
  };
}

/** An http(s) URL without query or fragment, without its trailing slashes. */
export const baseUrl: Kind<string> = {
  parse(value) {
    const parsed = new URL(url(['http:', 'https:']).parse(value));
    if (parsed.search !== '' || parsed.hash !== '') throw new Error('expected a URL without query or fragment');
    return value.replace(/\/+$/, '');
  },
  format: (value) => value,
};

export function parseBoolean(value: string): boolean {
  const lower = value.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  throw new Error('expected true or false');
}

export const boolean: Kind<boolean> = { parse: parseBoolean, format: String };

/** A point in time: ISO-8601, read in Europe/Amsterdam when it has no offset. */
export const moment: Kind<Date> = {
  parse(value) {
    const date = parseInstant(value);
    if (date === undefined)
      throw new Error(
        'expected an ISO-8601 date or timestamp, for example 2026-11-01T00:00 (Europe/Amsterdam) or 2026-10-31T23:00:00Z',
      );
    return date;
  },
  format: formatTimestamp,
};

/** One of `values`, in any letter case. */
export function oneOf<const T extends string>(values: readonly T[]): Kind<T> {
  return {
    parse(value) {
      const lower = value.toLowerCase();
      const found = values.find((v) => v === lower);
      if (found === undefined) throw new Error(`expected one of ${values.join(', ')}`);
      return found;
    },
    format: (value) => value,
  };
}

/** Express's `trust proxy` setting: off, on, a number of hops, or addresses/subnets/names. */
export type TrustProxy = boolean | number | string;

export const trustProxy: Kind<TrustProxy> = {
  parse(value) {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    if (/^\d+$/.test(value)) return Number(value);
    for (const entry of value.split(',').map((s) => s.trim())) {
      if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) continue;
      if (isAddressOrSubnet(entry)) continue;
      throw new Error(
        `expected false, true, a number of hops, or a comma list of addresses, subnets and loopback/linklocal/uniquelocal; "${entry}" is none of these`,
      );
    }
    return value;
  },
  format: String,
};

function isAddressOrSubnet(entry: string): boolean {
  const [address = '', range, ...rest] = entry.split('/');
  if (rest.length > 0 || !ipaddr.isValid(address)) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128);
  return ipaddr.IPv4.isValid(range) && ipaddr.parse(address).kind() === 'ipv4'; // address/netmask
}

const DURATION_UNITS: Record<string, number> = { ms: MILLISECOND, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** `500ms`, `5s`, `5m`, `2h`, `1d`, `1.5h`: milliseconds. A bare number is refused as ambiguous. */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i.exec(value.trim());
  if (match === null) throw new Error('expected a duration such as 500ms, 5s, 5m, 2h or 1d');
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[match[2]!.toLowerCase()]!);
  if (ms <= 0) throw new Error('expected a duration above zero');
  return ms;
}

/** The shortest exact form, with hours up to two days (`24h` reads better than `1d`). */
export function formatDuration(ms: number): string {
  if (ms >= 2 * DAY && ms % DAY === 0) return `${ms / DAY}d`;
  for (const [unit, size] of [
    ['h', HOUR],
    ['m', MINUTE],
    ['s', SECOND],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** Milliseconds, written with a unit. */
export const duration: Kind<number> = { parse: parseDuration, format: formatDuration };

/** Milliseconds in whole seconds, written with a unit. */
export const wholeSeconds: Kind<number> = {
  parse(value) {
    const ms = parseDuration(value);
    if (ms % SECOND !== 0) throw new Error('expected whole seconds, such as 20s or 1m');
    return ms;
  },
  format: formatDuration,
};

/** Comma-separated durations: milliseconds, frozen. */
export const durationList: Kind<readonly number[]> = {
  parse(value) {
    const parts = value.split(',').map((s) => s.trim());
    if (parts.some((p) => p === '')) throw new Error('expected a comma-separated list of durations such as 5s,5m,30m');
    return Object.freeze(parts.map(parseDuration));
  },
  format: (value) => value.map(formatDuration).join(','),
};

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: KiB,
  mib: MiB,
  gib: GiB,
};

/** `1048576`, `20MiB`, `5MB`: bytes. */
export function parseBytes(value: string): number {
  const match = /^(\d+)\s*(b|kb|mb|gb|kib|mib|gib)?$/i.exec(value.trim());
  if (match === null) throw new Error('expected a number of bytes, optionally with B, KB, MB, GB, KiB, MiB or GiB');
  const bytes = Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]!;
  if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new Error('expected at least 1 byte');
  return bytes;
}

/** The largest binary unit that divides `bytes` exactly: `20MiB`, `16KiB`, `1000`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', GiB],
    ['MiB', MiB],
    ['KiB', KiB],
  ] as const) {
    if (bytes > 0 && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

/** A number of bytes, at least 1, optionally with a unit. */
export const bytes: Kind<number> = { parse: parseBytes, format: formatBytes };

/** As `bytes`, or zero (`0`, `0MiB`) for none. */
export const bytesOrNone: Kind<number> = {
  parse: (value) => (/^0+\s*[a-z]*$/i.test(value) ? 0 : parseBytes(value)),
  format: formatBytes,
};

/** A key of at least `minLength` characters. */
export function key(minLength: number): Kind<string> {
  return {
    parse(value) {
      if (value.length < minLength) throw new Error(`expected at least ${minLength} characters`);
      return value;
    },
    format: (value) => value,
  };
}
