import { z } from "zod";

/**
 * Free text a client sends (names, labels, notes): trimmed, bounded, and refused when it holds what no name or
 * note means. A control character (NUL, BEL, ESC, ...) ends up in titles, burned-in captions, .srt and EDL files
 * and the operator's logs; an unpaired UTF-16 surrogate (`"\ud800"` in JSON) is not text at all: D1 stored it as
 * replacement characters, so the job record's streamer_name differed from its request's. Both are 422 naming
 * the field instead.
 */

/** C0 controls, DEL and C1 controls; `multiline` allows tab, line feed and carriage return (notes). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function plainText(maxChars: number, options: { multiline?: boolean } = {}) {
  const control = options.multiline ? CONTROL_EXCEPT_LINES : CONTROL;
  return z
    .string()
    .trim()
    .max(maxChars, { error: `must be at most ${maxChars} characters` })
    .refine((text) => !control.test(text), {
      error: options.multiline
        ? "must not contain control characters other than tab and line breaks"
        : "must not contain control characters (such as NUL, tab or line breaks)",
    })
    .refine((text) => !LONE_SURROGATE.test(text), { error: "must be valid Unicode text (it holds an unpaired surrogate)" });
}
