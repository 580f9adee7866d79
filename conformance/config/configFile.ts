// Reads the config file (content-conformance.yaml or --config FILE): validated against its JSON
// Schema, `${NAME}` replaced by environment variables (so secrets need not sit in the file), and
// relative paths taken from the file's folder (the file is reviewed in the vendor's repository).

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { createAjv, type ErrorObject } from '../../spec/index.ts';
import type { TargetVariants } from '../model/variants.ts';
import { configFileSchema } from './configFileSchema.ts';
import type { OptionName, OptionSpec } from './options.ts';
import { OPTIONS } from './options.ts';
import { didYouMean } from './suggest.ts';

/** The name looked for in the working directory when --config is not given. */
export const DEFAULT_CONFIG_FILE = 'content-conformance.yaml';

export type OptionValues = Partial<Record<OptionName, string | boolean | string[]>>;

export interface ConfigFile {
  file: string;
  values: OptionValues;
  /** Options whose value names an environment variable that is not set (option → variable). */
  unresolved: Partial<Record<OptionName, string>>;
  variants?: Partial<TargetVariants>;
}

export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
  /** Each problem found, all at once (the message joins them). */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('; '));
    this.problems = list;
  }
}

const validate = createAjv({ verbose: true, allowUnionTypes: true }).compile(configFileSchema());

const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigFileError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  return parseConfigFile(text, file, env);
}

export function parseConfigFile(text: string, file: string, env: NodeJS.ProcessEnv): ConfigFile {
  let doc: unknown;
  try {
    doc = parse(text) ?? {};
  } catch (error) {
    throw new ConfigFileError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
  if (!validate(doc)) throw new ConfigFileError(validate.errors!.map((e) => `${file}: ${describeError(e)}`));
  const { variants, ...options } = doc as Record<string, unknown> & { variants?: Partial<TargetVariants> };

  const values: OptionValues = {};
  const unresolved: ConfigFile['unresolved'] = {};
  for (const [key, raw] of Object.entries(options)) {
    const name = key as OptionName;
    const spec: OptionSpec = OPTIONS[name];
    if (typeof raw === 'boolean') {
      values[name] = raw;
      continue;
    }
    const substitute = (value: string) =>
      value.replace(ENV_REFERENCE, (_, variable: string) => {
        const found = env[variable];
        if (found === undefined || found === '') unresolved[name] ??= variable;
        return found ?? '';
      });
    const texts = (Array.isArray(raw) ? raw : [raw]).map((v) => substitute(String(v)));
    const inFolder = (v: string) =>
      (spec.value === 'FILE' || spec.value === 'DIR') && !isAbsolute(v) ? resolve(dirname(file), v) : v;
    values[name] = Array.isArray(raw) ? texts : inFolder(texts[0]!);
  }
  return { file, values, unresolved, ...(variants === undefined ? {} : { variants }) };
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath.slice(1).replaceAll('/', '.');
  const received = ` (received: ${JSON.stringify(error.data)})`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = [path, (error.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
      const known = Object.keys((error.parentSchema as { properties: object }).properties);
      const given = (error.params as { additionalProperty: string }).additionalProperty;
      const guess = didYouMean(given, known);
      // A short list helps; all 39 option keys do not (--help lists them).
      if (known.length <= 8) return `unknown key ${key}${guess} (known here: ${known.join(', ')})`;
      return `unknown key ${key}${guess || ' (the keys are the option names of --help, and variants)'}`;
    }
    case 'required':
      return `${path || '(root)'} needs ${(error.params as { missingProperty: string }).missingProperty}`;
    case 'enum':
      return `${path} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}${received}`;
    case 'type':
      return `${path || '(root)'} must be ${String((error.params as { type: string | string[] }).type).replace(',', ' or ')}${received}`;
    default:
      return `${path || '(root)'} ${error.message}${received}`;
  }
}
