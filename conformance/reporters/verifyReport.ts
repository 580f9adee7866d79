// `content-conformance verify-report FILE`: is this JSON or HTML report the one the suite wrote?

import { readFile } from 'node:fs/promises';
import { parseJson } from '../../spec/json.ts';
import { extractEmbeddedResult, renderHtml } from './html.ts';
import type { VerifyReportOutcome } from './integrity.ts';
import { verifyResultObject } from './integrity.ts';
import type { RunResult } from '../engine/results/result.ts';

export async function verifyReportFile(file: string, suiteVersion: string): Promise<VerifyReportOutcome> {
  const text = await readFile(file, 'utf8');
  if (/^\s*</.test(text)) {
    let embedded: unknown;
    try {
      embedded = extractEmbeddedResult(text);
    } catch (error) {
      return { ok: false, message: `the embedded result is not valid JSON: ${(error as Error).message}` };
    }
    if (embedded === undefined) return { ok: false, message: 'no embedded result found in this HTML file' };
    const hash = verifyResultObject(embedded);
    if (!hash.ok) return hash;
    const version = (embedded as RunResult).suite?.version;
    if (version !== suiteVersion) {
      return {
        ok: true,
        message: `${hash.message}; page not re-rendered (written by suite ${version}, this is ${suiteVersion})`,
      };
    }
    return renderHtml(embedded as RunResult) === text
      ? { ok: true, message: `${hash.message}; the page matches its embedded result` }
      : { ok: false, message: 'the page was edited: it differs from the page rendered from its embedded result' };
  }
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (error) {
    return { ok: false, message: `not a JSON or HTML report: ${(error as Error).message}` };
  }
  return verifyResultObject(doc);
}
