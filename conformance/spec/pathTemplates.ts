// Matches a concrete request path to the spec's path templates (`/events/{id}`). A literal
// template wins over a templated one (`/dictionary/userorganisations` over `/dictionary/{x}`).

export interface TemplateMatch {
  template: string;
  params: Record<string, string>;
}

interface CompiledTemplate {
  template: string;
  regex: RegExp;
  names: string[];
  literalChars: number;
}

function compile(template: string): CompiledTemplate {
  const names: string[] = [];
  let literalChars = 0;
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part);
      if (param) {
        names.push(param[1]!);
        return '([^/]+)';
      }
      literalChars += part.length;
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { template, regex: new RegExp(`^${source}/?$`), names, literalChars };
}

export function createPathMatcher(templates: Iterable<string>): (path: string) => TemplateMatch | undefined {
  const compiled = [...templates].map(compile).sort((a, b) => b.literalChars - a.literalChars);
  return (path) => {
    for (const t of compiled) {
      const m = t.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      t.names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1]!);
      });
      return { template: t.template, params };
    }
    return undefined;
  };
}
