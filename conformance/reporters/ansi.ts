// Minimal colouring for the console reporter; a no-op when colour is off.

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function paint(enabled: boolean): Paint {
  if (!enabled) {
    const id = (s: string) => s;
    return { red: id, green: id, yellow: id, magenta: id, cyan: id, dim: id, bold: id };
  }
  return {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    magenta: wrap(35, 39),
    cyan: wrap(36, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}
