import { TwitchUnavailableError } from "./errors";
import { gqlRequest, gqlString, type GqlOptions, type GqlResult } from "./gql";

export interface VideoMetadata {
  id: string;
  title: string;
  lengthSeconds: number;
  createdAt: string | null;
  /** RECORDED, RECORDING (still live), ... */
  status: string;
  /** ARCHIVE, HIGHLIGHT or UPLOAD. */
  broadcastType: string;
  owner: { id: string; login: string; displayName: string } | null;
  game: { id: string; displayName: string } | null;
  description: string | null;
  viewCount: number;
  language?: string;
}

const METADATA_FIELDS =
  "title,lengthSeconds,createdAt,status,broadcastType,owner{id,login,displayName},game{id,displayName},description,viewCount";

export function videoMetadataQuery(vodId: string): string {
  return `query{video(id:${gqlString(vodId)}){${METADATA_FIELDS}}}`;
}

/**
 * Language is asked in a separate operation of the same batch: it is not part of the documented query, and if
 * Twitch ever rejects the field only that operation fails, never the metadata.
 */
export function videoLanguageQuery(vodId: string): string {
  return `query{video(id:${gqlString(vodId)}){language}}`;
}

function videoOf(result: GqlResult): Record<string, unknown> | null | undefined {
  const data = result.data as { video?: unknown } | null;
  if (!data || !("video" in data)) return undefined;
  const video = data.video;
  if (video === null) return null;
  return typeof video === "object" ? (video as Record<string, unknown>) : undefined;
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** null = the video does not exist (deleted or expired). */
export async function getVideoMetadata(opts: GqlOptions, vodId: string): Promise<VideoMetadata | null> {
  const [main, lang] = await gqlRequest(opts, [{ query: videoMetadataQuery(vodId) }, { query: videoLanguageQuery(vodId) }]);
  const video = videoOf(main!);
  if (video === undefined || (video === null && main!.errors.length > 0)) {
    const reason = main!.errors.map((e) => e.message).join("; ") || "no video field";
    throw new TwitchUnavailableError(`Twitch GQL could not read video ${vodId}: ${reason}`);
  }
  if (video === null) return null;
  const owner = video.owner as Record<string, unknown> | null | undefined;
  const game = video.game as Record<string, unknown> | null | undefined;
  const language = str(videoOf(lang!)?.language);
  return {
    id: vodId,
    title: str(video.title) ?? "",
    lengthSeconds: typeof video.lengthSeconds === "number" ? video.lengthSeconds : 0,
    createdAt: str(video.createdAt),
    status: str(video.status) ?? "RECORDED",
    broadcastType: str(video.broadcastType) ?? "ARCHIVE",
    owner: owner
      ? { id: str(owner.id) ?? "", login: str(owner.login) ?? "", displayName: str(owner.displayName) ?? str(owner.login) ?? "" }
      : null,
    game: game ? { id: str(game.id) ?? "", displayName: str(game.displayName) ?? "" } : null,
    description: str(video.description),
    viewCount: typeof video.viewCount === "number" ? video.viewCount : 0,
    ...(language ? { language } : {}),
  };
}
