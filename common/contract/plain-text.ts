import { z } from "zod";

/**
 * Free text a client sends (names, labels, notes): trimmed, bounded, and refused when it holds what no name or
 * note means. A control character (NUL, BEL, ESC, ...) ends up in titles, burned-in captions, .srt and EDL files
 * and the operator's logs; an unpaired UTF-16 surrogate (`"\ud800"` in JSON) is not text at all: D1 stored it as
 * replacement characters, so the job record's streamer_name differed from its request's. Both are 422 naming
 * the field instead.
 *
 * Invisible formatting characters are refused the same way: a bidirectional override or isolate (U+202A-U+202E,
 * U+2066-U+2069) turns the rest of a title, a file name or a webhook payload around as displayed ("Trojan
 * Source" spoofing), and zero-width or blank characters make two names look the same or a name look empty.
 * Refused rather than stripped, like control characters: the text is kept exactly as sent or not at all. Kept:
 * what real text needs — the zero-width joiner and non-joiner (emoji sequences, Persian and Indic scripts),
 * variation selectors, the directional marks LRM, RLM and ALM (mixed right-to-left text), and tag characters
 * inside an emoji flag (🏴 + tags + cancel tag: Scotland, Wales).
 */

/** C0 controls, DEL and C1 controls, and the Unicode line and paragraph separators; `multiline` allows tab, line feed, carriage return and those separators (notes). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Invisible formatting: soft hyphen, Hangul fillers (blank "names"), Mongolian vowel separator, zero-width space,
 * bidi embeddings, overrides and isolates, word joiner and invisible operators, deprecated format characters,
 * zero-width no-break space (a BOM inside text), interlinear annotations, musical format characters, and tag
 * characters (checked after emoji flags are taken out).
 */
const INVISIBLE =
  /[\u00ad\u115f\u1160\u180e\u200b\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]/u;
/** An emoji tag sequence (🏴 U+1F3F4, tag letters/digits, cancel tag U+E007F): the flags of Scotland, Wales and England. */
const EMOJI_FLAG = /\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]{1,7}\u{e007f}/gu;

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");
const CONTROL_ALL = new RegExp(CONTROL.source, "g");
const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, "g");

/**
 * Text from elsewhere (Twitch's VOD title, owner and game names) under the same rules, by removal: it cannot be
 * sent back like a client's, yet it ends up in the same titles, files and payloads. Invisible formatting goes
 * (emoji flags kept), control characters and line breaks become spaces, an unpaired surrogate becomes U+FFFD.
 */
export function cleanedText(text: string): string {
  const clean = (piece: string) => piece.replace(INVISIBLE_ALL, "").replace(CONTROL_ALL, " ").replace(LONE_SURROGATE_ALL, "\ufffd");
  let out = "";
  let from = 0;
  for (const flag of text.matchAll(EMOJI_FLAG)) {
    out += clean(text.slice(from, flag.index)) + flag[0];
    from = flag.index + flag[0].length;
  }
  return (out + clean(text.slice(from))).trim();
}

/** The first invisible formatting character, as `U+202E`, or null (emoji flags' tag characters are not counted). */
export function invisibleCharacter(text: string): string | null {
  const found = INVISIBLE.exec(text.replace(EMOJI_FLAG, ""));
  return found ? `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}` : null;
}

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
    .refine((text) => !LONE_SURROGATE.test(text), { error: "must be valid Unicode text (it holds an unpaired surrogate)" })
    .check((ctx) => {
      const found = invisibleCharacter(ctx.value);
      if (found !== null) {
        ctx.issues.push({
          code: "custom",
          input: ctx.value,
          message: `must not contain invisible formatting characters such as direction overrides or zero-width spaces (it holds ${found})`,
        });
      }
    });
}
