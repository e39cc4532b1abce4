/** One satisfiable byte range of a file, or why there is none. RFC 9110 14.1.2, single ranges only. */
export type ByteRange = { offset: number; length: number } | "unsatisfiable" | null;

/**
 * `bytes=a-b`, `bytes=a-` and `bytes=-n` against a file of `size` bytes. Null (serve the whole file) for no
 * header, other units, several ranges or syntax errors, as a server may ignore a Range it does not support.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
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
