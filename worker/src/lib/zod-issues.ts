import type { z } from "zod";
import type { ErrorDetailItem } from "../../../common/contract";

/** `["manual_highlights", 1, "end_seconds"]` -> `manual_highlights[1].end_seconds`; the root is `body`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, root = "body"): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? root : out;
}

/**
 * Messages written for API clients ("must be an integer") instead of zod's defaults. Used as the per-parse
 * error map, so a message given on a schema itself still wins.
 */
export const clientErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.expected === "int") return "must be an integer";
      if (issue.expected === "object") return "must be a JSON object";
      if (issue.expected === "array") return "must be an array";
      // A number literal too large for a double (1e400) parses as Infinity: a number, but not a usable one.
      if (typeof issue.input === "number" && !Number.isFinite(issue.input)) return "must be a finite number (this one is too large to represent)";
      return `must be ${article(issue.expected)}${issue.input === null ? " (null is not allowed)" : ""}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return issue.origin === "array"
        ? `must have at least ${String(issue.minimum)} entries`
        : issue.origin === "string"
          ? `must be at least ${String(issue.minimum)} characters`
          : `must be ${issue.inclusive ? "at least" : "greater than"} ${String(issue.minimum)}`;
    case "too_big":
      return issue.origin === "array"
        ? `must have at most ${String(issue.maximum)} entries`
        : issue.origin === "string"
          ? `must be at most ${String(issue.maximum)} characters`
          : `must be ${issue.inclusive ? "at most" : "less than"} ${String(issue.maximum)}`;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "unrecognized_keys":
      return `must not contain the unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return issue.inclusive === false ? "matches more than one accepted form; send exactly one" : "does not match any accepted form";
    case "invalid_key":
      return `has a key that is not allowed (${firstMessage(issue.issues)})`;
    case "invalid_element":
      return `has an entry that is not allowed (${firstMessage(issue.issues)})`;
    default:
      // Schemas give their custom checks a message; one that did not still reads as a sentence (never zod's
      // bare "Invalid input").
      return "is not valid";
  }
};

/** The first nested issue's message, mapped the same way (invalid_key and invalid_element carry their cause). */
function firstMessage(issues: ReadonlyArray<z.core.$ZodIssue>): string {
  const first = issues[0];
  if (!first) return "no reason given";
  const mapped = clientErrorMap(first as Parameters<typeof clientErrorMap>[0]);
  return (typeof mapped === "string" ? mapped : mapped?.message) ?? first.message;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export function issuesToDetail(issues: ReadonlyArray<z.core.$ZodIssue>, prefix: ReadonlyArray<PropertyKey> = []): ErrorDetailItem[] {
  const detail: ErrorDetailItem[] = [];
  for (const issue of issues) {
    const field = fieldPath([...prefix, ...issue.path]);
    if (!isSafeIntegerCheck(issue)) {
      detail.push({ field, message: issue.message });
      continue;
    }
    // z.int() reports an integer beyond 2^53 (1e22) with the schema's "must be an integer", which it is: said once
    // as the field's own range when it has one, else as the bound of exact integers.
    if (issues.some((other) => other !== issue && fieldPath([...prefix, ...other.path]) === field)) continue;
    detail.push({ field, message: issue.code === "too_big" ? `must be at most ${Number.MAX_SAFE_INTEGER}` : `must be at least ${Number.MIN_SAFE_INTEGER}` });
  }
  return detail;
}

/** The safe-integer bound z.int() checks on its own (origin "int"), as opposed to a schema's min() or max(). */
function isSafeIntegerCheck(issue: z.core.$ZodIssue): boolean {
  return (issue.code === "too_big" || issue.code === "too_small") && issue.origin === "int";
}
