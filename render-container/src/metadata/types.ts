import { z } from "zod";
import type { RunProfile } from "../../../common/contract/enums";
import type { MomentSignals } from "../../../common/contract/render";

export interface StreamerInfo {
  name: string | null;
  /** As sent by the client (e.g. "she/her", "they"); default "they". */
  pronouns: string;
  twitch_url: string | null;
  twitter_url: string | null;
}

export interface MetadataMoment {
  id: string;
  /** VOD seconds. */
  start: number;
  end: number;
  profile: RunProfile;
  /**
   * What was said: only the words captions may show (trustedWords: confidently recognised, profanity guarded and
   * masked as the job asks), joined; null when not transcribed.
   */
  transcript: string | null;
  /**
   * The same words as the runs that were said one after another (TrustedWords.phrases, see momentSpeech): the
   * only spoken text a title may quote. Absent: nothing is quoted, and a spoken word is used only when it is
   * repeated or chat has it too.
   */
  spoken_phrases?: string[] | null;
  /**
   * The speech comes from the offline recogniser (pocketsphinx). About one in ten of the words it is sure of is
   * still wrong, and a title or story repeats a misheard phrase to every viewer ("come out real quick" for "check
   * the map real quick"): its phrases are quoted, and its words tagged, only where chat typed one of their content
   * words too (quotablePhrases, reliableSpokenWords). A remote Whisper's speech is quoted as it is.
   */
  speech_offline?: boolean;
  /**
   * What chat typed in reaction to the moment that may be quoted, most accounts first: in the pipeline only lines
   * and emote names a crowd of distinct voices typed (chat-crowd.ts: no loop, paste, promotion, greeting,
   * question or small talk), empty when chat did not react. Writers still rule out lines chat-lines.ts rejects.
   */
  top_chat_messages: string[];
  top_emotes: string[];
  /** The crowd behind top_chat_messages (chat-crowd.ts): distinct voices in the reaction window, accounts per line. */
  chat_crowd?: { voices: number; lines: { text: string; accounts: number }[] } | null;
  signals: MomentSignals | null;
  /** Manual highlight label. */
  label: string | null;
}

export interface MetadataInput {
  /** ISO 639-1 language to write in. */
  language: string;
  streamer: StreamerInfo;
  game: string | null;
  vod_title: string | null;
  moments: MetadataMoment[];
  reels: { run_name: RunProfile; moment_ids: string[] }[];
  /** Shorts by 1-based index, each from one moment. */
  shorts: { index: number; moment_id: string }[];
  /**
   * The job's `mask_profanity` (default true): a swear word that was said (and chat has too) appears starred
   * ("f******") in titles and stories; false shows it as said. Slurs are never written; tags never hold profanity.
   */
  mask_profanity?: boolean;
}

const Text = z.string().trim().min(1);

export const ReelMetadata = z.object({
  run_name: z.enum(["balanced", "audience", "streamer"]),
  title: Text,
  description: Text,
  tags: z.array(Text),
});
export const ShortMetadata = z.object({
  index: z.number().int().positive(),
  title: Text,
  description: Text,
  tags: z.array(Text),
});
export const MomentMetadata = z.object({
  id: z.string(),
  title: Text,
  /** One line: what happened and why it was picked. */
  story: Text,
});

export const MetadataOutput = z.object({
  language: z.string(),
  reels: z.array(ReelMetadata),
  shorts: z.array(ShortMetadata),
  moments: z.array(MomentMetadata),
  /** Why something fell back (unsupported language, LLM failure); end up in the manifest's warnings. */
  warnings: z.array(z.string()),
});
export type ReelMetadata = z.infer<typeof ReelMetadata>;
export type ShortMetadata = z.infer<typeof ShortMetadata>;
export type MomentMetadata = z.infer<typeof MomentMetadata>;
export type MetadataOutput = z.infer<typeof MetadataOutput>;

export interface MetadataWriter {
  readonly name: string;
  write(input: MetadataInput, opts?: { signal?: AbortSignal }): Promise<MetadataOutput>;
}

/** Platform limits the texts are kept within (YouTube: title 100, description 5000, tags 500 in total). */
export const LIMITS = { title: 100, description: 5000, tagsTotal: 500, tagLength: 30, tagCount: 15 } as const;
