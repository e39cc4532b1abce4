import { describe, expect, it } from "vitest";
import { parseVodUrl } from "../../../common/twitch";

describe("parseVodUrl", () => {
  it.each([
    ["https://www.twitch.tv/videos/2212345678", "2212345678"],
    ["http://twitch.tv/videos/123", "123"],
    ["https://m.twitch.tv/videos/42?t=1h2m3s", "42"],
    ["https://www.twitch.tv/videos/42#chat", "42"],
    ["https://www.twitch.tv/videos/42/", "42"],
    ["  HTTPS://WWW.TWITCH.TV/videos/7  ", "7"],
    ["https://www.twitch.tv/videos/000123", "123"],
    ["https://www.twitch.tv/videos/0", "0"],
    ["https://www.twitch.tv/videos/9223372036854775807", "9223372036854775807"],
  ])("accepts %s", (input, id) => {
    expect(parseVodUrl(input)).toEqual({ vod_id: id, canonical_url: `https://www.twitch.tv/videos/${id}` });
  });

  it.each([
    "https://www.twitch.tv/somechannel",
    "https://www.twitch.tv/somechannel/clip/AbcDef",
    "https://clips.twitch.tv/AbcDef",
    "https://www.twitch.tv/videos/abc",
    "https://www.twitch.tv/videos/",
    "https://evil.com/www.twitch.tv/videos/1",
    "https://www.twitch.tv.evil.com/videos/1",
    "https://player.twitch.tv/?video=v123",
    "ftp://twitch.tv/videos/1",
    "https://www.youtube.com/watch?v=123",
    "twitch.tv/videos/1",
    "https://www.twitch.tv/videos/12345678901234567890",
    "",
  ])("rejects %s", (input) => {
    expect(parseVodUrl(input)).toBeNull();
  });
});
