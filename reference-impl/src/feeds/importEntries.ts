import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { stripCategoriesForWrite } from '../dictionary/stripCategoriesForWrite.ts';
import { withStoredCategories } from '../dictionary/subItemGroupCategories.ts';
import type { PropertyIndex } from '../dictionary/indexes.ts';
import { prepareItemWrite, type PreparedItem } from '../domain/itemWrite.ts';
import type { StoredWfStatus } from '../domain/workflow.ts';
import { clientErrorOf } from '../http/clientErrorOf.ts';
import { writeItem, type ItemWriteDeps, type ItemWriter } from '../items/writeItem.ts';
import type { Db } from '../storage/db.ts';
import type { FeedRunReport } from '../storage/feeds/feedRunRow.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { convertEntry, type ConvertedEntry } from './convertEntry.ts';
import type { FeedDefinition } from './feedConfig.ts';
import type { PartnerEntry } from './partnerEntries.ts';
import { sameJson } from './sameJson.ts';
import type { EntryValidator } from './validateEntry.ts';

// @implements FEED-002
// The convert and import phases of a run, entry by entry. Every write goes through the item
// service (writeItem): one transaction under the item write lock, with its webhook outbox event.
//
// Rules for an entry matched by externalId (`<feed name>:<partner id>`, DEC-FEED-003):
//   none                      → created in readyforvalidation, whatever status the partner sent (WF-006)
//   readyforvalidation        → every field overwritten (FEED-001; `draft` is stored as readyforvalidation)
//   approved                  → only calendar and priceElements overwritten; editor changes kept (FEED-002)
//   rejected/archived/deleted → left untouched: an editor took it out of the feed's hands; the
//                               run counts it unchanged and notes it in errors
// An entry that would store exactly what is stored is not written: no new lastupdated, no webhook.

/** Lists of a run report hold at most this many entries (FeedRun schema). */
const MAX_REPORT_LIST = 10_000;

export interface ImportDeps {
  db: Db;
  itemWrites: ItemWriteDeps;
  validate: EntryValidator;
}

export interface ImportEntriesParams {
  feed: FeedDefinition;
  entries: readonly PartnerEntry[];
  /** Counted into as the entries go. */
  report: FeedRunReport;
  /** Called after each entry, so the run can record its progress. */
  onProgress?: () => Promise<void>;
}

export type ImportOutcome = 'created' | 'updated' | 'unchanged' | { untouched: StoredWfStatus };

/** Converts and imports `entries` in order; entry problems go into the report, storage failures throw. */
export async function importEntries(deps: ImportDeps, params: ImportEntriesParams): Promise<void> {
  const { feed, report } = params;
  const owner = (await deps.itemWrites.ontologies.ontologiesForOrganisations([feed.userorganisation])).get(
    feed.userorganisation,
  )!;
  const properties = owner.indexes.properties;
  const firstSeen = new Map<string, string>();

  for (const entry of params.entries) {
    const previous = entry.partnerId === undefined ? undefined : firstSeen.get(entry.partnerId);
    if (previous !== undefined) {
      report.skipped++;
      addError(report, {
        externalId: `${feed.name}:${entry.partnerId}`,
        message: `${entry.position} repeats the id of ${previous}; only the first is imported`,
      });
    } else {
      if (entry.partnerId !== undefined) firstSeen.set(entry.partnerId, entry.position);
      await importOne(deps, feed, entry, properties, report);
    }
    await params.onProgress?.();
  }
}

async function importOne(
  deps: ImportDeps,
  feed: FeedDefinition,
  entry: PartnerEntry,
  properties: PropertyIndex,
  report: FeedRunReport,
): Promise<void> {
  const conversion = convertEntry(entry, { feed, validate: deps.validate, properties });
  if (!conversion.ok) {
    report.skipped++;
    addError(
      report,
      conversion.externalId === undefined
        ? { message: conversion.message }
        : { externalId: conversion.externalId, message: conversion.message },
    );
    return;
  }
  const converted = conversion.entry;
  let outcome: ImportOutcome;
  try {
    outcome = await importEntry(deps, feed, converted, properties);
  } catch (error) {
    // Client errors are the entry's problems (a rule of the write, a trcid taken); anything
    // else is the service's and stops the run.
    const clientError = clientErrorOf(error);
    if (clientError === undefined || clientError.status >= 500) throw error;
    report.skipped++;
    addError(report, { externalId: converted.externalId, message: clientError.message });
    return;
  }
  report.converted++;
  for (const unmapped of converted.unmapped) {
    if (report.unmappedCategories.length < MAX_REPORT_LIST)
      report.unmappedCategories.push({ externalId: converted.externalId, value: unmapped.text });
  }
  if (typeof outcome === 'string') {
    report.imported[outcome]++;
  } else {
    report.imported.unchanged++;
    addError(report, {
      externalId: converted.externalId,
      message: `the item is ${outcome.untouched}: feed updates apply only to readyforvalidation, draft and approved items, so it was left unchanged`,
    });
  }
}

/** Thrown inside the write transaction to end it without writing. */
class NoWrite extends Error {
  readonly outcome: ImportOutcome;
  constructor(outcome: ImportOutcome) {
    super('no write');
    this.outcome = outcome;
  }
}

/**
 * The feed's writes act for its organisation and see every status of it (the feed owns its
 * items); an admin runs the feed, so it writes (DEC-AUTH-020).
 */
function feedWriter(feed: FeedDefinition): ItemWriter {
  return {
    // createdby/lastupdatedby of the feed's writes (DEC-ITEM-171).
    name: `feed:${feed.name}`,
    organisations: [feed.userorganisation],
    accountOrganisations: [feed.userorganisation],
    wfstatus: 'all',
    canWrite: true,
  };
}

/** Imports one converted entry by the rules above. Throws a client error (clientErrorOf) for an entry the item rules refuse. */
async function importEntry(
  deps: ImportDeps,
  feed: FeedDefinition,
  converted: ConvertedEntry,
  properties: PropertyIndex,
): Promise<ImportOutcome> {
  const writer = feedWriter(feed);
  const { collection, externalId, body } = converted;
  try {
    const result = await writeItem(deps.db, deps.itemWrites, {
      collection,
      writer,
      externalId,
      match: { externalId },
      importedAt: new Date().toISOString(),
      // Decided under the item write lock, on the item as it is now (an editor may just have approved it).
      body: (current: StoredItem | null) => {
        if (current === null) return body;
        if (current.wfstatus === WORKFLOW_STATUS.readyforvalidation) {
          if (storesSame(prepare(body, current), current)) throw new NoWrite('unchanged');
          return body;
        }
        if (current.wfstatus === WORKFLOW_STATUS.approved) {
          const merged = keepEditorFields(current, body);
          const next = prepare(merged, current);
          if (
            sameJson(next.doc.calendar, current.doc.calendar) &&
            sameJson(next.doc.priceElements, current.doc.priceElements)
          )
            throw new NoWrite('unchanged');
          return merged;
        }
        throw new NoWrite({ untouched: current.wfstatus });
      },
    });
    return result.previous === null ? 'created' : 'updated';
  } catch (error) {
    if (error instanceof NoWrite) return error.outcome;
    throw error;
  }

  // What writeItem would store for `item` (its prepareItemWrite and the owner's category rules).
  function prepare(item: Record<string, unknown>, current: StoredItem): PreparedItem {
    const prepared = prepareItemWrite({
      collection,
      body: { ...item, externalId },
      token: writer,
      existing: current,
      stripCategories: stripCategoriesForWrite,
    });
    prepared.doc = withStoredCategories(prepared.doc, properties);
    return prepared;
  }
}

/** FEED-002: the approved item as it is, with only the partner's calendar and priceElements. */
function keepEditorFields(current: StoredItem, entry: Record<string, unknown>): Record<string, unknown> {
  const { calendar: _calendar, priceElements: _priceElements, ...kept } = current.doc;
  const merged: Record<string, unknown> = {
    ...kept,
    trcid: current.trcid,
    wfstatus: current.wfstatus,
    userorganisation: current.userorganisation,
  };
  if (current.slug !== null) merged.slug = current.slug;
  if (entry.calendar !== undefined && entry.calendar !== null) merged.calendar = entry.calendar;
  if (entry.priceElements !== undefined && entry.priceElements !== null) merged.priceElements = entry.priceElements;
  return merged;
}

function storesSame(prepared: PreparedItem, current: StoredItem): boolean {
  return (
    prepared.entitytype === current.entitytype &&
    prepared.trcid === current.trcid &&
    prepared.wfstatus === current.wfstatus &&
    prepared.userorganisation === current.userorganisation &&
    prepared.externalId === current.externalId &&
    prepared.title === current.title &&
    prepared.slug === current.slug &&
    sameJson(withoutWriter(prepared.doc), withoutWriter(current.doc))
  );
}

/** Who wrote last is no change of content: an editor's save of the same item is not the feed's. */
function withoutWriter(doc: Record<string, unknown>): Record<string, unknown> {
  const { lastupdatedby: _writer, ...rest } = doc;
  return rest;
}

function addError(report: FeedRunReport, error: { externalId?: string; message: string }): void {
  if (report.errors.length < MAX_REPORT_LIST) report.errors.push({ ...error, message: error.message.slice(0, 2000) });
}
