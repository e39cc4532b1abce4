/**
 * Reads a request body's JSON text the way the API wants it read, which JSON.parse alone does not:
 *
 * - a syntax error is placed by line and column, never by quoting the body back (V8's own messages echo the
 *   text, binary included, into the answer);
 * - a member name given twice in one object is a problem, not "the last one wins": JSON.parse keeps the last,
 *   other parsers (a proxy, a WAF, the client's own logging) keep the first, so the same bytes would mean two
 *   different jobs;
 * - nesting is bounded: no request of this API nests more than a few levels, and code that walks a parsed value
 *   recursively (the Idempotency-Key's canonical JSON) must never meet thousands.
 *
 * One pass over the text with an explicit stack (no recursion, so the depth of the input cannot exhaust ours).
 */

/** Deepest nesting of objects and arrays a body may have; a job request needs 4 (manual_highlights[0].run_profiles). */
export const MAX_JSON_DEPTH = 32;

export type JsonTextProblem =
  /** Not JSON; `reason` continues "The request body is not valid JSON: ". */
  | { kind: "syntax"; reason: string }
  /** `path` is the member given twice, dotted (`parameters.cold_open_enabled`, `manual_highlights[1].label`). */
  | { kind: "duplicate_key"; path: string }
  /** `path` is where nesting went past MAX_JSON_DEPTH (its top-level member, or `body`). */
  | { kind: "too_deep"; path: string };

type Frame = { type: "object"; keys: Set<string>; key: string | null } | { type: "array"; index: number };

const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;

export function inspectJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextProblem | null {
  let i = 0;
  const stack: Frame[] = [];

  const skipWs = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const at = (offset: number) => {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < offset; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    return `line ${line}, column ${offset - lineStart + 1}`;
  };
  const unexpected = (what: string): JsonTextProblem =>
    i >= text.length
      ? { kind: "syntax", reason: "it ends before the JSON text is complete" }
      : { kind: "syntax", reason: `${what} at ${at(i)}` };
  const pathOf = (frames: Frame[]) => {
    let path = "";
    for (const f of frames) {
      if (f.type === "array") path += `[${f.index}]`;
      else if (f.key !== null) path += path === "" ? f.key : `.${f.key}`;
    }
    return path;
  };
  /** Scans a string starting at its opening quote; returns its raw text (quotes included), or the problem. */
  const scanString = (): { raw: string } | JsonTextProblem => {
    const start = i;
    i++;
    STRING_BODY.lastIndex = i;
    STRING_BODY.exec(text);
    i = STRING_BODY.lastIndex;
    if (text[i] !== '"') {
      return unexpected(text[i] === "\\" ? "an invalid escape sequence in a string" : "a control character in a string (escape it)");
    }
    i++;
    return { raw: text.slice(start, i) };
  };

  skipWs();
  if (i >= text.length) return { kind: "syntax", reason: "the body is empty" };
  let expect: "value" | "after" = "value";
  for (;;) {
    if (expect === "value") {
      skipWs();
      const ch = text[i];
      if (ch === "{" || ch === "[") {
        // Named by its top-level member; a body that is itself an array has none (`[0]` read as a field), so `body`.
        if (stack.length >= maxDepth) return { kind: "too_deep", path: stack[0]!.type === "array" ? "body" : pathOf(stack.slice(0, 1)) || "body" };
        i++;
        skipWs();
        if (ch === "[") {
          if (text[i] === "]") {
            i++;
            expect = "after";
            continue;
          }
          stack.push({ type: "array", index: 0 });
          continue;
        }
        if (text[i] === "}") {
          i++;
          expect = "after";
          continue;
        }
        const frame: Frame = { type: "object", keys: new Set(), key: null };
        stack.push(frame);
        const problem = readKey(frame);
        if (problem) return problem;
        continue;
      }
      if (ch === '"') {
        const scanned = scanString();
        if ("kind" in scanned) return scanned;
      } else if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) {
        NUMBER.lastIndex = i;
        if (!NUMBER.exec(text)) return unexpected("a malformed number");
        i = NUMBER.lastIndex;
      } else if (text.startsWith("true", i)) i += 4;
      else if (text.startsWith("false", i)) i += 5;
      else if (text.startsWith("null", i)) i += 4;
      else return unexpected("an unexpected character");
      expect = "after";
      continue;
    }
    skipWs();
    const top = stack.at(-1);
    if (!top) {
      if (i < text.length) return unexpected("more text after the JSON value");
      return null;
    }
    const ch = text[i];
    if (top.type === "array") {
      if (ch === ",") {
        i++;
        top.index++;
        expect = "value";
        continue;
      }
      if (ch === "]") {
        i++;
        stack.pop();
        continue;
      }
      return unexpected("a missing comma or ] in an array");
    }
    if (ch === ",") {
      i++;
      const problem = readKey(top);
      if (problem) return problem;
      expect = "value";
      continue;
    }
    if (ch === "}") {
      i++;
      stack.pop();
      continue;
    }
    return unexpected("a missing comma or } in an object");
  }

  /** Reads `"name":` of an object member (whitespace around it included); expect is "value" afterwards. */
  function readKey(frame: Frame & { type: "object" }): JsonTextProblem | null {
    skipWs();
    if (text[i] !== '"') return unexpected("a member name that is not a double-quoted string");
    const scanned = scanString();
    if ("kind" in scanned) return scanned;
    const key = JSON.parse(scanned.raw) as string;
    if (frame.keys.has(key)) {
      frame.key = key;
      return { kind: "duplicate_key", path: pathOf(stack) };
    }
    frame.keys.add(key);
    frame.key = key;
    skipWs();
    if (text[i] !== ":") return unexpected("a missing colon after a member name");
    i++;
    expect = "value";
    return null;
  }
}
