// Reads spec/requirements.yaml: every normative statement with a stable id, level and subject.

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Level, Subject } from '../model/levels.ts';
import { isLevel, SUBJECTS } from '../model/levels.ts';

export interface Requirement {
  id: string;
  level: Level;
  subject: Subject;
  section: string;
  statement: string;
  /** How the suite can check it (spec/requirements.yaml `verify`); absent: black-box, by HTTP. */
  verify?: Verify;
  /** Where a requirement the suite cannot observe is verified instead (`note`). */
  note?: string;
}

/** Requirements a black-box run cannot observe: reported as such, never failing or incomplete. */
export const VERIFY_VALUES = ['blackbox', 'needs-feed', 'unobservable'] as const;
export type Verify = (typeof VERIFY_VALUES)[number];

/** Whether a black-box run can observe the requirement (not needs-feed, not unobservable). */
export function isBlackbox(req: Pick<Requirement, 'verify'>): boolean {
  return req.verify === undefined || req.verify === 'blackbox';
}

export interface RequirementCatalogue {
  readonly all: readonly Requirement[];
  get(id: string): Requirement | undefined;
  has(id: string): boolean;
}

export class RequirementsError extends Error {
  override readonly name = 'RequirementsError';
}

/** The family of a requirement id: `HOOK` for HOOK-011, `DEC-ITEM` for DEC-ITEM-003. */
export function familyOf(id: string): string {
  return id.replace(/-\d+$/, '');
}

export function createCatalogue(requirements: readonly Requirement[]): RequirementCatalogue {
  const byId = new Map(requirements.map((r) => [r.id, r]));
  return { all: requirements, get: (id) => byId.get(id), has: (id) => byId.has(id) };
}

export function parseRequirements(text: string, source = 'requirements.yaml'): RequirementCatalogue {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new RequirementsError(`${source} is not valid YAML: ${(error as Error).message}`);
  }
  const list = (doc as { requirements?: unknown } | null)?.requirements;
  if (!Array.isArray(list)) throw new RequirementsError(`${source} must have a top-level "requirements" list`);
  const seen = new Set<string>();
  const out: Requirement[] = [];
  list.forEach((raw: Record<string, unknown>, index) => {
    const where = `${source} entry ${index} (${String(raw?.id ?? '?')})`;
    const { id, level, subject, section, statement, verify, note } = raw ?? {};
    if (typeof id !== 'string' || !/^[A-Z]+(?:-[A-Z]+)*-\d{3}$/.test(id))
      throw new RequirementsError(`${where}: id must look like FAMILY-NNN`);
    if (seen.has(id)) throw new RequirementsError(`${where}: duplicate id ${id}`);
    if (!isLevel(level))
      throw new RequirementsError(`${where}: level must be MUST, SHOULD or DECISION (received: ${String(level)})`);
    if (typeof subject !== 'string' || !(SUBJECTS as readonly string[]).includes(subject)) {
      throw new RequirementsError(
        `${where}: subject must be one of ${SUBJECTS.join(', ')} (received: ${String(subject)})`,
      );
    }
    if (verify !== undefined && !(VERIFY_VALUES as readonly unknown[]).includes(verify)) {
      throw new RequirementsError(
        `${where}: verify must be one of ${VERIFY_VALUES.join(', ')} (received: ${String(verify)})`,
      );
    }
    seen.add(id);
    const entry: Requirement = {
      id,
      level,
      subject: subject as Subject,
      section: String(section ?? ''),
      statement: String(statement ?? ''),
    };
    if (verify !== undefined && verify !== 'blackbox') entry.verify = verify as Verify;
    if (typeof note === 'string' && note !== '') entry.note = note;
    out.push(entry);
  });
  return createCatalogue(out);
}

export async function loadRequirements(file: string): Promise<RequirementCatalogue> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RequirementsError(`cannot read the requirement catalogue ${file}: ${(error as Error).message}`);
  }
  return parseRequirements(text, file);
}
