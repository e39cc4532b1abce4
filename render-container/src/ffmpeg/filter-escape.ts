/**
 * FFmpeg filtergraph quoting. A value inside a filter option goes through two parsers: the option parser
 * (`:` separates options, `\` and `'` are special) and the graph parser (`,;[]` also special). Quoting the
 * value in single quotes covers the option level; a quote inside it must close, be escaped, and reopen.
 * The result is then escaped once more for the graph level.
 */
export function escapeFilterValue(value: string): string {
  const optionLevel = `'${value.replace(/'/g, `'\\''`)}'`;
  return optionLevel.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}
