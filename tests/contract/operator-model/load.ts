// model.yaml (the operator's model as facts) and deviations.yaml (where we differ, and why).
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { ModelObjects } from './compare.ts';

export interface Root {
  object: string;
  schema: string;
  fields?: string[];
  except?: string[];
}

export interface Deviation {
  path: string;
  requirement?: string;
  decision?: string;
  why: string;
}

const read = (name: string): unknown => YAML.parse(fs.readFileSync(path.join(import.meta.dirname, name), 'utf8'));

export const model = read('model.yaml') as { roots: Root[]; objects: ModelObjects };

export const deviations: Deviation[] = (read('deviations.yaml') as { deviations: Deviation[] | null }).deviations ?? [];

/** Whether a deviation covers a model path: the field itself and everything in it. */
export const covers = (deviation: Deviation, modelPath: string): boolean =>
  modelPath === deviation.path || modelPath.startsWith(`${deviation.path}.`);
