import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatLine } from "../../../common/contract/job-plan";
import type { CropMode } from "../../../common/contract/enums";
import { startTwitchServer, type TwitchServer } from "../../../dev/twitch-server/server";
import { LOCAL_EMOTES } from "../../../dev/twitch-server/emote-images";
import { chatLook } from "../../../render-container/src/chat-overlay/layout";
import { readableNameColor } from "../../../render-container/src/chat-overlay/name-color";
import { captionBandTop, reelChatRegion, shortChatRegion } from "../../../render-container/src/chat-overlay/placement";
import { facecamOnCanvas, renderReelPiece } from "../../../render-container/src/render/render-reel";
import { probeMedia } from "../../../render-container/src/ffmpeg/probe";
import { runProcess } from "../../../render-container/src/ffmpeg/process";
import { renderShort, type ShortRenderOptions } from "../../../render-container/src/render/render-short";
import { splitPanelHeight } from "../../../render-container/src/render/short-layout";
import type { Size } from "../../../render-container/src/render/types";
import { colorDistance, pixelAt, regionDifference, type RgbFrame, type TestClip } from "../../support/media";
import { renderTestSource, SOURCE_START } from "./fixtures";

/**
 * The chat overlay on real FFmpeg, judged by the pixels of the frames: when a message appears, what colour a
 * name is drawn in, that emotes are images when the CDN serves them and words when it does not, and that the
 * captions and the split layout's facecam panel are never touched. Half-size shorts (540x960: every size in
 * the overlay scales with the width) keep the encodes cheap.
 */
const SIZE: Size = { width: 540, height: 960 };
const FPS = 30;
const START = SOURCE_START + 4;
const LENGTH = 4;
/** The known message: sent 2.0 s into the short, its sender's colour DodgerBlue (readable: kept as it is). */
const KNOWN_AT = 2;
const BLUE = "#1E90FF";
const NAVY = "#000080";
const KAPPA = "25";
const MISSING_EMOTE = "424242";

let clip: TestClip;
let dir: string;
let twitch: TwitchServer;

const line = (at: number, name: string, color: string | null, ...fragments: (string | { emote: string; name: string })[]): ChatLine => ({
  at: START + at,
  name,
  color,
  fragments: fragments.map((f) => (typeof f === "string" ? { text: f, emote_id: null } : { text: f.name, emote_id: f.emote })),
});

const CHAT: ChatLine[] = [
  line(KNOWN_AT, "Bluename", BLUE, "no way"),
  line(2.6, "Navyname", NAVY, "clip it"),
  line(3.1, "Emoter", null, { emote: KAPPA, name: "Kappa" }, " ", { emote: MISSING_EMOTE, name: "Missing" }),
];
const CAPTIONS = [{ start: 0.1, end: 3.9, text: "we are going to win this game" }];

async function render(layout: CropMode, name: string, extra: Partial<ShortRenderOptions> = {}): Promise<string> {
  const out = path.join(dir, `${layout}-${name}.mp4`);
  await renderShort({ clip, start: START, end: START + LENGTH, layout, size: SIZE, captions: CAPTIONS, out, ...extra });
  return out;
}

/** `count` consecutive frames from frame `first` (frame k shows short time k/30). */
async function frames(file: string, first: number, count: number): Promise<RgbFrame[]> {
  const { stdout } = await runProcess(
    "ffmpeg",
    ["-hide_banner", "-nostdin", "-loglevel", "error", "-ss", ((first - 0.5) / FPS).toFixed(4), "-i", file, "-frames:v", String(count), "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { collectStdout: true },
  );
  const bytes = SIZE.width * SIZE.height * 3;
  return Array.from({ length: stdout.length / bytes }, (_, k) => ({ ...SIZE, data: stdout.subarray(k * bytes, (k + 1) * bytes) }));
}

function regionOf(layout: CropMode) {
  const look = chatLook(SIZE, "panel");
  const region = shortChatRegion({ layout, size: SIZE, panelHeight: layout === "split" ? splitPanelHeight(SIZE, 0.5) : null, videoTop: layout === "fit" ? (SIZE.height - 304) / 2 : null, titleSeconds: 0, titleFontSize: 32 }, look)!;
  return { look, region, rect: { x: region.x, y: region.top, w: region.w, h: region.bottom - region.top } };
}

/** Pixels of a rectangle within `distance` of a colour. */
function countNear(f: RgbFrame, r: { x: number; y: number; w: number; h: number }, hex: string, distance = 60): number {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) if (colorDistance(pixelAt(f, x, y), want) < distance) n++;
  return n;
}

beforeAll(async () => {
  clip = await renderTestSource();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "chat-overlay-test-"));
  twitch = await startTwitchServer({ root: dir });
});
afterAll(async () => {
  await twitch?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** The short without chat, per layout: what each chat render is compared with (rendered once per layout). */
const plainRenders = new Map<CropMode, Promise<string>>();
const plainOf = (layout: CropMode) => plainRenders.get(layout) ?? (plainRenders.set(layout, render(layout, "plain")), plainRenders.get(layout)!);

describe.each([
  ["crop", "panel"],
  ["fit", "panel"],
  ["split", "panel"],
  ["fit", "bubbles"],
  ["split", "bubbles"],
] as const)("chat over a %s short (%s)", (layout, style) => {
  let plain: string;
  let chat: string;
  beforeAll(async () => {
    plain = await plainOf(layout);
    chat = await render(layout, `chat-${style}`, { chat: { lines: CHAT, style, emoteBase: twitch.emoteUrl } });
  });

  it("shows the known message within 0.2 s of the second it was sent, and not before", async () => {
    const { rect } = regionOf(layout);
    const first = KNOWN_AT * FPS - 12;
    const [a, b] = await Promise.all([frames(plain, first, 24), frames(chat, first, 24)]);
    const changed = a.map((f, k) => regionDifference(f, b[k]!, rect));
    const appears = first + changed.findIndex((d) => d > 2);
    expect(appears, `differences per frame from ${first}: ${changed.map((d) => d.toFixed(1)).join(" ")}`).toBeGreaterThanOrEqual(KNOWN_AT * FPS);
    expect((appears - KNOWN_AT * FPS) / FPS).toBeLessThanOrEqual(0.2);
    // Before it: nothing at all was drawn anywhere.
    for (let k = 0; k < 12; k++) expect(regionDifference(a[k]!, b[k]!, { x: 0, y: 0, ...SIZE, w: SIZE.width, h: SIZE.height })).toBeLessThan(0.5);
  });

  it("draws a name in its Twitch colour, and a dark colour as a readable one", async () => {
    const { rect } = regionOf(layout);
    const [f] = await frames(chat, Math.round(3.0 * FPS), 1);
    expect(readableNameColor(BLUE, "Bluename")).toBe(BLUE);
    expect(countNear(f!, rect, BLUE, 40)).toBeGreaterThan(40);
    const readable = readableNameColor(NAVY, "Navyname");
    expect(colorDistance([0, 0, 0x80], [1, 3, 5].map((i) => parseInt(readable.slice(i, i + 2), 16)))).toBeGreaterThan(100);
    // Its name is on the bottom row (the newest message at 3.0 s): drawn in the readable colour, nothing navy there.
    const { look, region } = regionOf(layout);
    const nameBox = { x: region.x + look.pad, y: region.bottom - look.pad - look.lineHeight, w: Math.round(look.fontSize * 5), h: look.lineHeight };
    expect(countNear(f!, nameBox, readable, 40)).toBeGreaterThan(40);
    expect(countNear(f!, nameBox, NAVY, 40)).toBeLessThan(5);
  });

  it("never touches the captions (nor, in split, the facecam panel)", async () => {
    const captions = { x: 0, y: captionBandTop(SIZE), w: SIZE.width, h: Math.round(SIZE.height * 0.82) - captionBandTop(SIZE) };
    const [a, b] = await Promise.all([frames(plain, 100, 12), frames(chat, 100, 12)]);
    // The encoder's choices shift a little everywhere when part of the picture changes (about 1 of 255 here);
    // the chat itself changes its own region by far more.
    const { rect } = regionOf(layout);
    for (let k = 0; k < a.length; k++) {
      expect(regionDifference(a[k]!, b[k]!, rect)).toBeGreaterThan(8);
      expect(regionDifference(a[k]!, b[k]!, captions)).toBeLessThan(2);
      if (layout === "split") expect(regionDifference(a[k]!, b[k]!, { x: 0, y: 0, w: SIZE.width, h: splitPanelHeight(SIZE, 0.5) })).toBeLessThan(2);
    }
  });
});

describe("emotes", () => {
  it("draws an emote the CDN serves as its image, and one it answers 404 for as its name", async () => {
    const { rect, look, region } = regionOf("crop");
    const served = await render("crop", "emotes", { chat: { lines: CHAT, style: "panel", emoteBase: twitch.emoteUrl } });
    const [f] = await frames(served, Math.round(3.5 * FPS), 1);
    const kappa = `#${LOCAL_EMOTES[KAPPA]!.rgb.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
    // The emote row is the bottom row: the disc's colour is there, and white text after it (the missing emote's name).
    const bottomRow = { x: region.x, y: region.bottom - look.pad - look.lineHeight, w: region.w, h: look.lineHeight };
    expect(countNear(f!, bottomRow, kappa, 40)).toBeGreaterThan(100);
    expect(countNear(f!, bottomRow, "#FFFFFF", 30)).toBeGreaterThan(40);

    // No CDN at all (nothing listens there): every emote is its name, and the short is still made.
    const unreachable = await render("crop", "no-cdn", { chat: { lines: CHAT, style: "panel", emoteBase: "http://127.0.0.1:9/emoticons/v2" } });
    const [g] = await frames(unreachable, Math.round(3.5 * FPS), 1);
    expect(countNear(g!, bottomRow, kappa, 40)).toBe(0);
    expect(countNear(g!, bottomRow, "#FFFFFF", 30)).toBeGreaterThan(countNear(f!, bottomRow, "#FFFFFF", 30));
    expect(rect.w).toBeGreaterThan(0);
  });

  it("draws a damaged emote image (a PNG cut in half) as its name, and still makes the short", async () => {
    const { look, region } = regionOf("crop");
    const halfPng: typeof fetch = async (input) => {
      const whole = Buffer.from(await (await fetch(String(input))).arrayBuffer());
      return new Response(whole.subarray(0, Math.floor(whole.length / 2)), { status: 200, headers: { "content-type": "image/png" } });
    };
    const warnings: string[] = [];
    const damaged = await render("crop", "damaged-emote", { chat: { lines: CHAT, style: "panel", emoteBase: twitch.emoteUrl, fetch: halfPng, warn: (m) => warnings.push(m) } });
    const [f] = await frames(damaged, Math.round(3.5 * FPS), 1);
    const bottomRow = { x: region.x, y: region.bottom - look.pad - look.lineHeight, w: region.w, h: look.lineHeight };
    const kappa = `#${LOCAL_EMOTES[KAPPA]!.rgb.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
    expect(countNear(f!, bottomRow, kappa, 40)).toBe(0);
    expect(countNear(f!, bottomRow, "#FFFFFF", 30)).toBeGreaterThan(40);
    expect(warnings.join(" ")).toMatch(/emote 25: the image does not decode; drawn as its name/);
  });
});

describe("chat over a reel's moment (reel_chat_overlay)", () => {
  it("shows the known message on time on the right-hand side, clear of the lower-third title", async () => {
    const size = { width: 640, height: 360 };
    const piece = (name: string, chat: boolean) =>
      renderReelPiece({ clip, start: START, end: START + LENGTH, titleText: "The shot of the year", size, out: path.join(dir, `reel-${name}.mp4`), ...(chat ? { chat: { lines: CHAT, style: "panel" as const, emoteBase: twitch.emoteUrl } } : {}) });
    const [plain, chat] = await Promise.all([piece("plain", false), piece("chat", true)]);
    const region = reelChatRegion(size);
    const rect = { x: region.x, y: region.top, w: region.w, h: region.bottom - region.top };
    const grab = async (file: string, at: number) => {
      const { stdout } = await runProcess("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-ss", String(at), "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], { collectStdout: true });
      return { ...size, data: stdout };
    };
    const before = KNOWN_AT - 0.1;
    const after = KNOWN_AT + 0.2;
    expect(regionDifference(await grab(plain.path, before), await grab(chat.path, before), rect)).toBeLessThan(1.5);
    const [a, b] = [await grab(plain.path, after), await grab(chat.path, after)];
    expect(regionDifference(a, b, rect)).toBeGreaterThan(5);
    // The title card (left, lower third) is as it was.
    expect(regionDifference(a, b, { x: 0, y: Math.round(size.height * 0.72), w: Math.round(size.width * 0.6), h: Math.round(size.height * 0.2) })).toBeLessThan(2);
  });

  it("keeps off a bottom-right facecam the analysis found: the chat ends above it, on the same side", async () => {
    const size = { width: 640, height: 360 };
    // The synthetic VODs' bottom-right cam (dev/synth-vod), as facecam detection finds it.
    const cam = { x: 0.7344, y: 0.6389, w: 0.25, h: 0.3278 };
    const piece = (name: string, o: { chat: boolean; facecam?: typeof cam }) =>
      renderReelPiece({ clip, start: START, end: START + LENGTH, titleText: null, size, out: path.join(dir, `reel-cam-${name}.mp4`), facecam: o.facecam ?? null, ...(o.chat ? { chat: { lines: CHAT, style: "panel" as const, emoteBase: null } } : {}) });
    const [plain, blind, kept] = await Promise.all([piece("plain", { chat: false }), piece("blind", { chat: true }), piece("kept", { chat: true, facecam: cam })]);
    const source = (await probeMedia(clip.path)).video;
    const onCanvas = facecamOnCanvas(cam, source, size);
    const region = reelChatRegion(size, onCanvas);
    expect(region.x).toBe(reelChatRegion(size).x);
    expect(region.bottom).toBeLessThanOrEqual(onCanvas.y);
    const grab = async (file: string, at: number) => {
      const { stdout } = await runProcess("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-ss", String(at), "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], { collectStdout: true });
      return { ...size, data: stdout };
    };
    const at = 3.5;
    const [p, b, k] = [await grab(plain.path, at), await grab(blind.path, at), await grab(kept.path, at)];
    // The cam's top edge: covered by the chat's bottom rows when the cam is not known, untouched when it is.
    const camTop = { x: onCanvas.x, y: onCanvas.y, w: onCanvas.w, h: Math.round(onCanvas.h * 0.25) };
    expect(regionDifference(p, b, camTop)).toBeGreaterThan(5);
    expect(regionDifference(p, k, { ...onCanvas, w: Math.min(onCanvas.w, size.width - onCanvas.x), h: Math.min(onCanvas.h, size.height - onCanvas.y) })).toBeLessThan(1.5);
    // And the chat is there, above the cam.
    expect(regionDifference(p, k, { x: region.x, y: region.top, w: region.w, h: region.bottom - region.top })).toBeGreaterThan(5);
  });

  it("moves to the left-hand column when a cam down the right side leaves too little above or below it", () => {
    const size = { width: 1280, height: 720 };
    const right = reelChatRegion(size);
    const tallRight = reelChatRegion(size, { x: 900, y: 150, w: 360, h: 400 });
    expect(tallRight.x).toBeLessThan(size.width * 0.1);
    expect([tallRight.top, tallRight.bottom]).toEqual([right.top, right.bottom]);
    // A top-left cam (the default place) leaves the right-hand column as it was.
    expect(reelChatRegion(size, { x: 0, y: 0, w: 320, h: 180 })).toEqual(right);
  });
});
