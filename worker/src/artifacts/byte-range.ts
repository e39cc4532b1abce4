/** One satisfiable byte range of a file, or why there is none. RFC 9110 14.1.2, single ranges only. */
export type ByteRange = { offset: number; length: number } | "unsatisfiable" | null;

/**
 * `bytes=a-b`, `bytes=a-` and `bytes=-n` against a file of `size` bytes. Null (serve the whole file) for no
 * header, other units, several ranges or syntax errors, as a server may ignore a Range it does not support.
 * Read as RFC 9110 writes it: the unit in any case (`BYTES=0-9`) and spaces or tabs around the range (its list
 * syntax allows them: `bytes= 0-9`).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  const m = header ? /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const first = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < first) return null;
  if (first >= size) return "unsatisfiable";
  return { offset: first, length: last - first + 1 };
}

/**
 * The range to serve for a request's `Range` and `If-Range` (RFC 9110 13.1.5): an `If-Range` that names another
 * version (an ETag other than `etag`, compared strongly, or a date other than `lastModified`) means "send it all".
 */
export function requestedRange(headers: { range?: string; ifRange?: string }, size: number, etag: string, lastModified: Date): ByteRange {
  if (!headers.range) return null;
  const ifRange = headers.ifRange?.trim();
  if (ifRange) {
    const current = ifRange.startsWith('"') || ifRange.startsWith("W/") ? ifRange === etag : Date.parse(ifRange) === Math.floor(lastModified.getTime() / 1000) * 1000;
    if (!current) return null;
  }
  return parseByteRange(headers.range, size);
}
