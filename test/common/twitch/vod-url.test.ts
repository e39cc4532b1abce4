import { describe, expect, it } from "vitest";
import { classifyTwitchUrl, notAVodMessage, parseVodUrl } from "../../../common/twitch";

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
    // The forms users paste besides the address bar's: old links Twitch still redirects, the embed player, no scheme.
    ["https://www.twitch.tv/video/123", "123"],
    ["https://www.twitch.tv/some_channel/v/123", "123"],
    ["https://www.twitch.tv/SomeChannel/video/0123", "123"],
    ["https://www.twitch.tv/somechannel/videos/123", "123"],
    ["https://player.twitch.tv/?video=v123&parent=example.com", "123"],
    ["https://player.twitch.tv/?parent=example.com&video=123&autoplay=false", "123"],
    ["https://embed.twitch.tv/?video=v123&parent=example.com", "123"],
    ["https://m.twitch.tv/videos/123", "123"],
    ["twitch.tv/videos/123", "123"],
    ["www.twitch.tv/videos/123?t=5m", "123"],
    ["m.twitch.tv/videos/123", "123"],
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
    "twitch.tv.evil.com/videos/1",
    "https://player.twitch.tv/?channel=somechannel",
    "https://player.twitch.tv/?video=abc",
    "ftp://twitch.tv/videos/1",
    "https://www.youtube.com/watch?v=123",
    "https://user@www.twitch.tv/videos/1",
    "https://www.twitch.tv:8443/videos/1",
    "https://www.twitch.tv/videos/12/extra",
    "https://www.twitch.tv/videos/12345678901234567890",
    "",
  ])("rejects %s", (input) => {
    expect(parseVodUrl(input)).toBeNull();
  });
});

describe("classifyTwitchUrl", () => {
  it.each([
    ["https://clips.twitch.tv/AbcDef", "clip"],
    ["https://www.twitch.tv/somechannel/clip/AbcDef-x1", "clip"],
    ["https://clips.twitch.tv/embed?clip=AbcDef&parent=x", "clip"],
    ["https://www.twitch.tv/somechannel", "channel"],
    ["twitch.tv/somechannel", "channel"],
    ["https://www.twitch.tv/somechannel/about", "channel"],
    ["https://www.twitch.tv/somechannel/videos?filter=archives", "channel_videos"],
    ["https://www.twitch.tv/somechannel/clips", "channel_videos"],
    ["https://player.twitch.tv/?channel=somechannel&parent=x", "live_player"],
    ["https://embed.twitch.tv/?channel=somechannel&parent=x", "live_player"],
    ["https://www.twitch.tv/collections/abc123", "collection"],
    ["https://www.twitch.tv/directory/category/just-chatting", "other_twitch"],
    ["https://www.twitch.tv/videos/12345678901234567890", "id_too_long"],
    ["https://www.youtube.com/watch?v=123", "not_twitch"],
    ["https://www.twitch.tv.evil.com/videos/1", "not_twitch"],
    ["javascript:alert(1)", "not_url"],
    ["not a url", "not_url"],
  ])("%s is %s", (input, kind) => {
    expect(classifyTwitchUrl(input).kind).toBe(kind);
  });

  it("names what was recognised in one sentence", () => {
    expect(notAVodMessage("clip")).toMatch(/^is a Twitch clip URL, not a VOD; /);
    expect(notAVodMessage("channel")).toMatch(/^is a Twitch channel URL \(its live broadcast\), not a VOD; /);
    expect(notAVodMessage("live_player")).toMatch(/^is a Twitch player URL of a live channel, not a VOD; /);
  });
});
