import { describe, expect, it } from "vitest";
import { parseAttributes, parseMasterPlaylist, parseMediaPlaylist } from "../../../common/twitch";

// Shape of a real usher answer (URLs shortened), including the quoted comma inside CODECS.
const MASTER = `#EXTM3U
#EXT-X-TWITCH-INFO:ORIGIN="s3",B="false",REGION="EU",USER-IP="1.2.3.4",SERVING-ID="abc",CLUSTER="cloudfront_vod",USER-COUNTRY="DE",MANIFEST-CLUSTER="cloudfront_vod"
#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="chunked",NAME="1080p60 (source)",AUTOSELECT=NO,DEFAULT=NO
#EXT-X-STREAM-INF:BANDWIDTH=8534030,CODECS="avc1.4D402A,mp4a.40.2",RESOLUTION=1920x1080,VIDEO="chunked",FRAME-RATE=60.000
https://d1.cloudfront.net/abc_123/chunked/index-dvr.m3u8
#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="720p60",NAME="720p60",AUTOSELECT=YES,DEFAULT=YES
#EXT-X-STREAM-INF:BANDWIDTH=3422999,CODECS="avc1.4D401F,mp4a.40.2",RESOLUTION=1280x720,VIDEO="720p60",FRAME-RATE=60.000
https://d1.cloudfront.net/abc_123/720p60/index-dvr.m3u8
#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="audio_only",NAME="Audio Only",AUTOSELECT=NO,DEFAULT=NO
#EXT-X-STREAM-INF:BANDWIDTH=160000,CODECS="mp4a.40.2",VIDEO="audio_only"
https://d1.cloudfront.net/abc_123/audio_only/index-dvr.m3u8
`;

const MEDIA = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:10
#ID3-EQUIV-TDTG:2024-01-01T12:00:00
#EXT-X-PLAYLIST-TYPE:EVENT
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-TWITCH-ELAPSED-SECS:0.000
#EXT-X-TWITCH-TOTAL-SECS:34.567
#EXTINF:10.000,
0.ts
#EXTINF:10.000,
1-muted.ts
#EXTINF:10.000,
2-unmuted.ts
#EXT-X-DISCONTINUITY
#EXTINF:4.567,
3.ts
#EXT-X-ENDLIST
`;

describe("parseAttributes", () => {
  it("keeps commas inside quoted values", () => {
    expect(parseAttributes('BANDWIDTH=1,CODECS="avc1.4D402A,mp4a.40.2",RESOLUTION=1920x1080')).toEqual({
      BANDWIDTH: "1",
      CODECS: "avc1.4D402A,mp4a.40.2",
      RESOLUTION: "1920x1080",
    });
  });
});

describe("parseMasterPlaylist", () => {
  it("reads every variant with names, source and audio-only flags", () => {
    const variants = parseMasterPlaylist(MASTER, "https://usher.ttvnw.net/vod/1.m3u8?sig=x");
    expect(variants).toHaveLength(3);
    expect(variants[0]).toEqual({
      name: "1080p60 (source)",
      group_id: "chunked",
      url: "https://d1.cloudfront.net/abc_123/chunked/index-dvr.m3u8",
      bandwidth: 8534030,
      resolution: { width: 1920, height: 1080 },
      codecs: "avc1.4D402A,mp4a.40.2",
      frame_rate: 60,
      audio_only: false,
      source: true,
    });
    expect(variants[1]).toMatchObject({ group_id: "720p60", source: false, audio_only: false });
    expect(variants[2]).toMatchObject({
      name: "Audio Only",
      group_id: "audio_only",
      audio_only: true,
      source: false,
      resolution: null,
      frame_rate: null,
    });
  });

  it("resolves relative variant URLs against the playlist URL", () => {
    const text = `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="mp4a.40.2"\n../media/audio_only/index-dvr.m3u8\n`;
    const [v] = parseMasterPlaylist(text, "http://127.0.0.1:9/vod/5.m3u8");
    expect(v!.url).toBe("http://127.0.0.1:9/media/audio_only/index-dvr.m3u8");
    expect(v!.group_id).toBe("audio_only");
    expect(v!.audio_only).toBe(true);
  });

  it("rejects text that is not a playlist", () => {
    expect(() => parseMasterPlaylist("<html>", "http://x/")).toThrow(/EXTM3U/);
  });
});

describe("parseMediaPlaylist", () => {
  it("gives absolute URIs, cumulative starts, muted flags and the total", () => {
    const p = parseMediaPlaylist(MEDIA, "https://d1.cloudfront.net/abc_123/chunked/index-dvr.m3u8");
    expect(p.target_duration).toBe(10);
    expect(p.ended).toBe(true);
    expect(p.total_duration).toBe(34.567);
    expect(p.segments.map((s) => [s.index, s.start, s.duration, s.muted])).toEqual([
      [0, 0, 10, false],
      [1, 10, 10, true],
      [2, 20, 10, true],
      [3, 30, 4.567, false],
    ]);
    expect(p.segments[0]!.uri).toBe("https://d1.cloudfront.net/abc_123/chunked/0.ts");
    // "-unmuted" parts are only served under their "-muted" name.
    expect(p.segments[2]!.uri).toBe("https://d1.cloudfront.net/abc_123/chunked/2-muted.ts");
    // #EXT-X-DISCONTINUITY before 3.ts: the timeline still adds up, the timestamps may not.
    expect(p.segments.map((s) => [s.discontinuity, s.discontinuity_sequence])).toEqual([
      [false, 0],
      [false, 0],
      [false, 0],
      [true, 1],
    ]);
  });

  it("resolves relative, root-relative and absolute segment URIs, keeping their queries", () => {
    const text = [
      "#EXTM3U",
      "#EXT-X-DISCONTINUITY",
      "#EXTINF:10,",
      "0.ts",
      "#EXTINF:10,",
      "/other/path/1.ts?start_offset=0&end_offset=99",
      "#EXT-X-DISCONTINUITY",
      "#EXTINF:10,",
      "https://cdn2.example.net/vod/2-muted.ts?token=a",
      "#EXTINF:10,",
      "../up/3-unmuted.ts",
      "#EXT-X-ENDLIST",
    ].join("\n");
    const p = parseMediaPlaylist(text, "https://cdn.example.net/vod/chunked/index-dvr.m3u8?x=1");
    expect(p.segments.map((s) => s.uri)).toEqual([
      "https://cdn.example.net/vod/chunked/0.ts",
      "https://cdn.example.net/other/path/1.ts?start_offset=0&end_offset=99",
      "https://cdn2.example.net/vod/2-muted.ts?token=a",
      "https://cdn.example.net/vod/up/3-muted.ts",
    ]);
    expect(p.segments.map((s) => s.muted)).toEqual([false, false, true, true]);
    // A discontinuity before the first segment has nothing to break.
    expect(p.segments.map((s) => s.discontinuity_sequence)).toEqual([0, 0, 1, 1]);
    expect(p.segments.map((s) => s.start)).toEqual([0, 10, 20, 30]);
  });

  it("fMP4: #EXT-X-MAP applies to every later segment until the next one; -unmuted.mp4 is served as -muted.mp4", () => {
    const text = [
      "#EXTM3U",
      "#EXT-X-VERSION:6",
      '#EXT-X-MAP:URI="init-0.mp4"',
      "#EXTINF:10.000,",
      "0.mp4",
      "#EXTINF:10.000,",
      "1-unmuted.mp4",
      "#EXT-X-DISCONTINUITY",
      '#EXT-X-MAP:URI="init-1.mp4"',
      "#EXTINF:10.000,",
      "2.mp4",
      "#EXT-X-ENDLIST",
    ].join("\n");
    const p = parseMediaPlaylist(text, "https://cdn.example.net/v/chunked/index-dvr.m3u8");
    expect(p.segments.map((s) => [s.uri.split("/").pop(), s.init_uri?.split("/").pop(), s.muted, s.discontinuity_sequence])).toEqual([
      ["0.mp4", "init-0.mp4", false, 0],
      ["1-muted.mp4", "init-0.mp4", true, 0],
      ["2.mp4", "init-1.mp4", false, 1],
    ]);
    expect(parseMediaPlaylist(MEDIA, "https://x/a/index.m3u8").segments.every((s) => s.init_uri === null)).toBe(true);
  });

  it("reports a playlist still being recorded as not ended", () => {
    const p = parseMediaPlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n0.ts\n", "http://x/a/index.m3u8");
    expect(p.ended).toBe(false);
    expect(p.segments).toHaveLength(1);
  });
});
