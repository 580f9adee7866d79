import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ENTITY_TYPE } from '../../../generated/constants.ts';
import { isEntityType, type EntityType } from '../domain/entityRules.ts';
import { isObject } from '../../../spec/json.ts';

// The configured inbound feeds (feeds.yaml, or the file FEEDS_FILE names), checked once at start:
// a broken file stops the service with every problem named, instead of failing runs later.

const DEMO_FEEDS_FILE = fileURLToPath(new URL('./feeds.yaml', import.meta.url));

export interface SubFeed {
  feedInfoId: string;
  /** Its own endpoint; absent: the entries of the feed's document with this feedInfoId. */
  url?: string;
}

export interface FeedDefinition {
  id: string;
  /** First part of externalId (DEC-FEED-003). */
  name: string;
  accountId: string;
  userorganisation: string;
  url: string;
  /** For entries without `entitytype`. */
  entitytype: EntityType;
  subFeeds: readonly SubFeed[];
  /** Extra trusted certificate authorities (PEM), for partners with a private CA and for tests. */
  ca?: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const FEED_FIELDS = ['id', 'name', 'accountId', 'userorganisation', 'url', 'entitytype', 'subFeeds', 'caFile'];

/** The feeds of `path` (default: the shipped demo file). Throws one Error naming every problem. */
export function loadFeeds(path: string = DEMO_FEEDS_FILE): FeedDefinition[] {
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`Feed configuration ${path} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const problems: string[] = [];
  const feeds = parseFeeds(doc, dirname(path), problems);
  if (problems.length > 0)
    throw new Error(`Feed configuration ${path} is invalid:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return feeds;
}

function parseFeeds(doc: unknown, baseDir: string, problems: string[]): FeedDefinition[] {
  const list = isObject(doc) ? doc.feeds : undefined;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    problems.push('feeds must be a list');
    return [];
  }
  const feeds: FeedDefinition[] = [];
  const ids = new Set<string>(),
    names = new Set<string>();
  list.forEach((raw, index) => {
    const at = `feeds[${index}]`;
    if (!isObject(raw)) return problems.push(`${at} must be an object`);
    for (const key of Object.keys(raw))
      if (!FEED_FIELDS.includes(key))
        problems.push(`${at}.${key} is not a feed field (known: ${FEED_FIELDS.join(', ')})`);
    const id = text(raw.id, `${at}.id`, ID, problems);
    const name = raw.name === undefined ? id : text(raw.name, `${at}.name`, NAME, problems);
    if (id !== undefined && ids.has(id)) problems.push(`${at}.id ${id} is used twice`);
    if (name !== undefined && names.has(name))
      problems.push(`${at}.name ${name} is used twice: externalIds of two feeds would collide`);
    const accountId = text(raw.accountId, `${at}.accountId`, ID, problems);
    const userorganisation = text(raw.userorganisation, `${at}.userorganisation`, /^.{1,200}$/u, problems);
    const url = httpsUrl(raw.url, `${at}.url`, problems);
    const entitytype = raw.entitytype === undefined ? ENTITY_TYPE.EVENEMENT : raw.entitytype;
    if (!isEntityType(entitytype))
      problems.push(
        `${at}.entitytype must be EVENEMENT, LOCATIE, EVENTGROUP, ROUTE or VENUE (received: ${JSON.stringify(raw.entitytype)})`,
      );
    const subFeeds = parseSubFeeds(raw.subFeeds, at, problems);
    let ca: string | undefined;
    if (raw.caFile !== undefined) {
      if (typeof raw.caFile !== 'string' || raw.caFile === '') problems.push(`${at}.caFile must be a file path`);
      else {
        try {
          ca = readFileSync(resolve(baseDir, raw.caFile), 'utf8');
          if (!ca.includes('-----BEGIN CERTIFICATE-----'))
            problems.push(`${at}.caFile ${raw.caFile} holds no PEM certificate`);
        } catch (error) {
          problems.push(`${at}.caFile ${raw.caFile} cannot be read: ${(error as Error).message}`);
        }
      }
    }
    if (
      id === undefined ||
      name === undefined ||
      accountId === undefined ||
      userorganisation === undefined ||
      url === undefined ||
      !isEntityType(entitytype)
    )
      return;
    ids.add(id);
    names.add(name);
    feeds.push({
      id,
      name,
      accountId,
      userorganisation,
      url,
      entitytype,
      subFeeds,
      ...(ca === undefined ? {} : { ca }),
    });
  });
  return feeds;
}

function parseSubFeeds(raw: unknown, at: string, problems: string[]): SubFeed[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${at}.subFeeds must be a list`);
    return [];
  }
  const seen = new Set<string>();
  return raw.flatMap((entry, index): SubFeed[] => {
    const where = `${at}.subFeeds[${index}]`;
    if (!isObject(entry)) return (problems.push(`${where} must be an object`), []);
    const feedInfoId = text(entry.feedInfoId, `${where}.feedInfoId`, /^.{1,200}$/u, problems);
    const url = entry.url === undefined ? undefined : httpsUrl(entry.url, `${where}.url`, problems);
    if (feedInfoId === undefined) return [];
    if (seen.has(feedInfoId)) problems.push(`${where}.feedInfoId ${feedInfoId} is used twice`);
    seen.add(feedInfoId);
    return [url === undefined ? { feedInfoId } : { feedInfoId, url }];
  });
}

function text(value: unknown, at: string, pattern: RegExp, problems: string[]): string | undefined {
  if (typeof value !== 'string' || !pattern.test(value)) {
    problems.push(`${at} must be a string matching ${pattern} (received: ${JSON.stringify(value)})`);
    return undefined;
  }
  return value;
}

// @implements FEED-008
// Partners are fetched over HTTPS only (FEED-008: "the partner's HTTPS endpoint").
function httpsUrl(value: unknown, at: string, problems: string[]): string | undefined {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    /* reported below */
  }
  if (url === undefined || url.protocol !== 'https:' || url.username !== '' || url.password !== '') {
    problems.push(`${at} must be an absolute https: URL without user info (received: ${JSON.stringify(value)})`);
    return undefined;
  }
  return url.href;
}
