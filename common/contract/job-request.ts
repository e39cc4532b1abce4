import { z } from "zod";
import { classifyTwitchUrl, notAVodMessage } from "../twitch/vod-url";
import { CaptionStyle, ChatOverlayStyle, CropMode, ModelPreset, RunProfile } from "./enums";
import { isIso6391 } from "./languages";
import { plainText } from "./plain-text";

/**
 * The body of POST /jobs as a zod schema: one definition for request validation, the inferred
 * TypeScript types and the OpenAPI document (descriptions live in `.meta`). The schema holds every rule that
 * concerns one field; rules that tie fields together or need the account/VOD (plan caps, VOD length, overlap
 * of manual highlights) are checked by the Worker after this schema, and every problem is reported together.
 *
 * Optional fields also accept `null`, meaning "not sent". Unknown keys are ignored everywhere.
 */

/** Longest VOD the service accepts (422 above it, probed or given as vod_length_hours). */
export const MAX_VOD_HOURS = 24;

/**
 * A link written into generated descriptions, kept in its normalised form (spaces, control characters and
 * non-ASCII percent-encoded, as a browser would send it): z.url accepts `https://twitch.tv/a b` and a NUL as
 * typed, which then broke the link in every description.
 */
const httpUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: (issue) => orEmpty(issue.input, `must be an http(s) URL (${what})`, "there is none") })
    .max(2048, { error: "must be at most 2048 characters" })
    .transform((value) => new URL(value).href);

/**
 * The message for a value that failed its check, or, for an empty one, that it is empty: a form left blank sends
 * `""`, and "must be an http(s) URL" then leaves its sender looking for a wrong URL instead of a missing one.
 */
function orEmpty(input: unknown, message: string, omitWhen: string): string {
  return typeof input === "string" && input.trim() === "" ? `is empty; omit it (or send null) when ${omitWhen}` : message;
}

/** An http(s) URL with a host; IPv6 literals (`https://[2606:4700::1]/hook`) included, unlike z.url's hostname rule. */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

export const WebhookUrlInput = z
  .string()
  .max(2048, { error: "must be at most 2048 characters" })
  .refine(isHttpUrl, { error: (issue) => orEmpty(issue.input, "must be an http(s) URL (webhook receiver)", "no webhook is wanted") })
  .meta({
    description:
      "Receives job.running, job.completed and job.failed callbacks. Must point to a public internet address: " +
      "loopback (127.0.0.0/8, ::1, localhost), private (10/8, 172.16/12, 192.168/16, fc00::/7), carrier-grade NAT " +
      "(100.64/10), link-local and cloud metadata (169.254/16, fe80::/10), multicast, reserved and documentation " +
      "ranges, names that only resolve inside a network (single labels, .local, .internal, .localhost and similar) " +
      "and URLs with a user name or password are refused with 422, in every spelling of an address (decimal, hex, " +
      "octal, short forms, IPv4-mapped IPv6). Public IPv6 literals are accepted. Stored and called in normalised form.",
  });

const language = (omitWhen: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine(isIso6391, { error: (issue) => orEmpty(issue.input, "must be an ISO 639-1 language code such as en, de or pt", omitWhen) });

const ratio = z.number().min(0, { error: "must be between 0 and 1" }).max(1, { error: "must be between 0 and 1" });

const profileList = z
  .array(RunProfile)
  .refine((list) => new Set(list).size === list.length, { error: "must not list a profile twice" });

export const VodUrlInput = z
  .string()
  .max(2048, { error: "must be at most 2048 characters" })
  .check((ctx) => {
    // Over the bound is reported once, by max() above, not also as "not a VOD URL".
    if (ctx.value.length > 2048) return;
    const found = classifyTwitchUrl(ctx.value);
    // A clip, a channel or the live player is named as such: "not a VOD URL" alone leaves the user guessing.
    if (found.kind !== "vod") ctx.issues.push({ code: "custom", input: ctx.value, message: notAVodMessage(found.kind) });
  })
  .meta({
    description:
      "Public Twitch VOD URL: https://www.twitch.tv/videos/<id>, also on twitch.tv or m.twitch.tv, without the scheme, " +
      "in the old forms /video/<id>, /<channel>/v/<id> and /<channel>/video/<id>, as /<channel>/videos/<id>, or an embed's " +
      "https://player.twitch.tv/?video=v<id>. Stored as https://www.twitch.tv/videos/<id>. Clips, channels and live " +
      "players are refused, naming what they are.",
  });

export const ManualHighlightInput = z
  .object({
    start_seconds: z
      .number()
      .min(0, { error: "must be 0 or more" })
      .meta({ description: "Start of the range in the VOD, in seconds." }),
    end_seconds: z.number().meta({
      description: "End of the range in seconds. end - start must be 20 to 180 s and lie within the VOD.",
    }),
    label: plainText(200).nullish().meta({
      description: "Free label.",
    }),
    run_profiles: profileList
      .min(1, { error: "must not be empty (omit it to apply the range to every selected profile)" })
      .nullish()
      .meta({ description: "Subset of the selected run_profiles. Omitted: every selected profile." }),
  })
  .check((ctx) => {
    const { start_seconds: start, end_seconds: end } = ctx.value;
    const length = end - start;
    if (!(length >= 20 && length <= 180)) {
      ctx.issues.push({
        code: "custom",
        input: end,
        path: ["end_seconds"],
        message: `must be 20 to 180 seconds after start_seconds, not ${shownLength(length)}`,
      });
    }
  })
  .meta({ description: "A range that is guaranteed to become a highlight (and a short)." });
export type ManualHighlightInput = z.infer<typeof ManualHighlightInput>;

export const RunOverrideInput = z
  .object({
    target_duration_minutes: z
      .int({ error: "must be an integer" })
      .min(1, { error: "must be between 1 and 30" })
      .max(30, { error: "must be between 1 and 30" })
      .nullish()
      .meta({ description: "Reel length for the profile, 1-30 minutes." }),
    target_duration_seconds: z
      .int({ error: "must be an integer" })
      .min(30, { error: "must be between 30 and 1800" })
      .max(1800, { error: "must be between 30 and 1800" })
      .nullish()
      .meta({ description: "Reel length for the profile, 30-1800 s. Takes precedence over target_duration_minutes." }),
    audience_weight: ratio.nullish().meta({ description: "Weight of chat reaction in moment selection, 0-1." }),
    streamer_weight: ratio.nullish().meta({ description: "Weight of the streamer's own presence, 0-1." }),
    similarity_threshold: ratio.nullish().meta({ description: "Higher lets more similar moments through, 0-1." }),
    highlight_min_score: ratio.nullish().meta({ description: "Score a moment must beat, 0-1." }),
    bucket_size_seconds: z
      .int({ error: "must be an integer" })
      .min(1, { error: "must be between 1 and 3600" })
      .max(3600, { error: "must be between 1 and 3600" })
      .nullish()
      .meta({ description: "Granularity of the scoring pass, 1-3600 s." }),
  })
  .meta({ description: "Per-profile tuning. Unknown keys are ignored." });
export type RunOverrideInput = z.infer<typeof RunOverrideInput>;

/** Values outside a clamp range are accepted and clamped by the Worker; only wrong types are rejected. */
export const ParametersInput = z
  .object({
    min_highlight_duration: z
      .int({ error: "must be an integer" })
      .min(1, { error: "must be at least 1" })
      .nullish()
      .meta({ description: "Shortest single highlight in seconds (default 20). Clamped to 180." }),
    max_highlight_duration: z
      .int({ error: "must be an integer" })
      .nullish()
      .meta({ description: "Longest single highlight in seconds (default 60). Clamped to 180; raised to min if smaller." }),
    cold_open_enabled: z.boolean().nullish().meta({ description: "Open the reel with a teaser montage (default false)." }),
    cold_open_max_clips: z
      .int({ error: "must be an integer" })
      .nullish()
      .meta({ description: "Clips in the teaser (default 3). Clamped to 2-6." }),
    cold_open_snippet_duration: z
      .number()
      .nullish()
      .meta({ description: "Seconds per teaser snippet (default 3). Clamped to 2-10." }),
    reel_title_card_enabled: z.boolean().nullish().meta({ description: "Title card over each reel segment (default false)." }),
    shorts_title_card_enabled: z
      .boolean()
      .nullish()
      .meta({ description: "Clip title flashed at the start of each short (default true)." }),
    shorts_crop_mode: CropMode.nullish().meta({
      description: "crop (fill, lose sides), fit (whole frame, padded) or split (facecam over gameplay; the facecam is found in the VOD, else the top-left quarter). Default crop.",
    }),
    shorts_split_ratio: z
      .number()
      .nullish()
      .meta({ description: "Split mode: share of the frame for the facecam (default 0.5). Clamped to 0.15-0.85." }),
    shorts_facecam_frame_enabled: z
      .boolean()
      .nullish()
      .meta({ description: "Split mode: coloured outline around the facecam (default false)." }),
    shorts_facecam_frame_color: z
      .string()
      .nullish()
      .meta({ description: "Split mode: white, black or violet; any other text falls back to white." }),
    caption_style: CaptionStyle.nullish().meta({
      description: "Burned captions: plain (white words) or word_highlight (the word being said drawn in yellow, moving word by word). Default plain.",
    }),
    mask_profanity: z.boolean().nullish().meta({
      description: "Captions show a swear word as its first letter and stars (f***) (default true). Slurs are always masked; a profane word the recogniser is not sure of, or that nothing else (chat) confirms, is never shown.",
    }),
    chat_overlay: ChatOverlayStyle.nullish().meta({
      description:
        "Chat replay drawn into each short: off (default), panel (a translucent chat box) or bubbles (each message on " +
        "its own card). Messages appear when they were sent on the VOD's clock, names in the sender's Twitch colour " +
        "(a readable colour when none or too dark), Twitch emotes as images, at most a few lines at a time; never over " +
        "the captions or the facecam panel. Accounts posting on a loop and pasted lines show once; links and " +
        "promotion never. Same price.",
    }),
    reel_chat_overlay: z.boolean().nullish().meta({
      description: "Also draw the chat replay (in the chat_overlay style, panel when off) into the reels' moments, clear of the streamer's facecam (default false).",
    }),
  })
  .meta({ description: "Pipeline options. Unknown keys are ignored; out-of-range values are clamped." });
export type ParametersInput = z.infer<typeof ParametersInput>;

export const JobRequestInput = z
  .object({
    vod_url: VodUrlInput,
    streamer_name: plainText(100)
      .nullish()
      .meta({ description: "Display name used in generated titles and descriptions." }),
    game_name: plainText(200)
      .nullish()
      .meta({ description: "Primary game or category." }),
    streamer_twitch_url: httpUrl("channel link").nullish().meta({ description: "Channel link for descriptions." }),
    streamer_twitter_url: httpUrl("social link").nullish().meta({ description: "Social link for descriptions." }),
    streamer_pronouns: plainText(40)
      .nullish()
      .meta({ description: "Pronouns used for metadata (default they)." }),
    webhook_url: WebhookUrlInput.nullish(),
    vod_length_hours: z
      .number()
      .gt(0, { error: "must be greater than 0" })
      .max(MAX_VOD_HOURS, { error: `must be at most ${MAX_VOD_HOURS} (the longest VOD the service accepts)` })
      .nullish()
      .meta({
        description:
          "The VOD's length in hours, greater than 0, at most 24. The VOD is still probed: the job is billed for " +
          "max(this, the real length), where a value at most 2 % (or 60 s) below the real length counts as the real " +
          "length. Only when Twitch cannot be reached is this length used in place of the probe; the job is then " +
          "settled against the real length when the renderer opens the VOD (a longer VOD reserves the difference or " +
          "fails the job with insufficient_credits; a shorter one is refunded the difference at completion).",
      }),
    final_video_length_minutes: z
      .number()
      .min(0, { error: "must be between 1 and 30 (0 only with compilation_enabled false)" })
      .max(30, { error: "must be between 1 and 30 (0 only with compilation_enabled false)" })
      .nullish()
      .meta({
        description:
          "Total reel runtime across executed profiles, 1-30 minutes; 0 only with compilation_enabled false. " +
          "Default: the sum of the executed profiles' own targets.",
      }),
    compilation_enabled: z
      .boolean()
      .nullish()
      .meta({ description: "false: shorts-only job (needs num_shorts > 0; runs only the first profile). Default true." }),
    num_shorts: z
      .int({ error: "must be an integer" })
      .min(0, { error: "must be between 0 and 10" })
      .max(10, { error: "must be between 0 and 10" })
      .nullish()
      .meta({ description: "Vertical shorts, 0-10 (default 0). Silently reduced to the plan cap." }),
    burn_captions: z.boolean().nullish().meta({ description: "Burn captions into shorts (default true)." }),
    manual_highlights: z
      .array(ManualHighlightInput)
      .max(10, { error: "must have at most 10 entries" })
      .nullish()
      .meta({ description: "Up to 10 ranges that must become highlights." }),
    model_preset: ModelPreset.nullish().meta({ description: "Quality preset and per-hour rate (default auto_balance)." }),
    stream_language: language("the language is to be detected").nullish().meta({ description: "ISO 639-1 code; overrides auto-detection." }),
    metadata_language: language("the stream's language is wanted")
      .nullish()
      .meta({ description: "ISO 639-1 code for generated titles/descriptions/tags (default: the stream language)." }),
    run_profiles: profileList
      .min(1, { error: "must list at least one profile" })
      .nullish()
      .meta({ description: "Subset of balanced, audience, streamer; no duplicates (default [balanced])." }),
    run_overrides: z
      // A profile's entry may be null, meaning "no override" like every optional value: a client that fills a
      // fixed set of keys (`{balanced: tuning ?? null}`) is not refused for the profiles it leaves alone.
      .record(z.string(), RunOverrideInput.nullable())
      .nullish()
      .meta({
        description:
          "Per-profile tuning keyed by a selected profile name. An entry of null means no override for that profile (as if the key were absent).",
      }),
    parameters: ParametersInput.nullish(),
  })
  .meta({ description: "Body of POST /jobs and POST /jobs/estimate." });
export type JobRequestInput = z.infer<typeof JobRequestInput>;

/**
 * A range length as a client can check it: without float noise (20.5 - 0.5 shows as 20, 20.1 - 0.2 as 19.9), yet
 * never rounded onto an allowed length (19.999 used to read "not 20").
 */
function shownLength(length: number): string {
  const plain = Number(length.toPrecision(10));
  return plain >= 20 && plain <= 180 ? String(length) : String(plain);
}
