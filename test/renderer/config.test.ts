import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../render-container/src/config";
import { startRendererProcess, type RendererProcess } from "../support/renderer-process";

describe("the renderer's settings (loadConfig)", () => {
  it("listens on 127.0.0.1 unless HOST says otherwise, with the documented defaults", () => {
    const c = loadConfig({ RENDERER_TOKEN: "t" });
    expect(c).toMatchObject({ host: "127.0.0.1", port: 8080, token: "t", devMode: false, maxTasks: 1, downloadConcurrency: 6 });
    expect(loadConfig({ RENDERER_TOKEN: "t", HOST: "0.0.0.0", MAX_TASKS: "3", PORT: "9000" })).toMatchObject({ host: "0.0.0.0", maxTasks: 3, port: 9000 });
  });

  it("refuses to run as a service without RENDERER_TOKEN, unless RENDERER_DEV_MODE=1", () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({ RENDERER_TOKEN: "" })).toThrow(/RENDERER_TOKEN is not set/);
    expect(loadConfig({ RENDERER_DEV_MODE: "1" })).toMatchObject({ token: undefined, devMode: true });
    // Tools that listen on nothing (the render CLI, the benchmark) need no token.
    expect(loadConfig({}, { service: false }).token).toBeUndefined();
  });

  it("names a malformed setting instead of replacing it with a default", () => {
    expect(() => loadConfig({ RENDERER_TOKEN: "t", MAX_TASKS: "two" })).toThrow(/^MAX_TASKS must be a whole number \(got "two"\)\.$/);
    expect(() => loadConfig({ RENDERER_TOKEN: "t", ENCODE_CONCURRENCY: "0" })).toThrow(/ENCODE_CONCURRENCY must be greater than 0/);
    expect(() => loadConfig({ RENDERER_TOKEN: "t", PORT: "70000" })).toThrow(/PORT must be a port number/);
    expect(() => loadConfig({ RENDERER_DEV_MODE: "yes" })).toThrow(/RENDERER_DEV_MODE must be "1"/);
    expect(() => loadConfig({ RENDERER_TOKEN: "t", POCKETSPHINX_CROSS_CHECK: "off" })).toThrow(/^POCKETSPHINX_CROSS_CHECK must be "0" \(no checking searches\) or "1" \(got "off"\)\.$/);
    expect(() => loadConfig({ RENDERER_TOKEN: "t", POCKETSPHINX_FAST: "yes" })).toThrow(/POCKETSPHINX_FAST must be "1"/);
    expect(loadConfig({ RENDERER_TOKEN: "t", POCKETSPHINX_CROSS_CHECK: "0", POCKETSPHINX_FAST: "" }).token).toBe("t");
  });

  it("takes the emote CDN of the chat overlay from TWITCH_EMOTE_URL, Twitch's own by default", () => {
    expect(loadConfig({ RENDERER_TOKEN: "t" }).emoteBaseUrl).toBe("https://static-cdn.jtvnw.net/emoticons/v2");
    expect(loadConfig({ RENDERER_TOKEN: "t", TWITCH_EMOTE_URL: "http://127.0.0.1:8790/emoticons/v2" }).emoteBaseUrl).toBe("http://127.0.0.1:8790/emoticons/v2");
    expect(() => loadConfig({ RENDERER_TOKEN: "t", TWITCH_EMOTE_URL: "static-cdn.jtvnw.net" })).toThrow(/^TWITCH_EMOTE_URL must be an http\(s\) URL/);
  });
});

describe("starting the renderer process", () => {
  let renderer: RendererProcess | undefined;
  afterEach(() => {
    if (renderer && renderer.child.exitCode === null) renderer.child.kill("SIGKILL");
    renderer = undefined;
  });

  it("without RENDERER_TOKEN: exits with 1 after one clear log line, never listening", async () => {
    renderer = await startRendererProcess({ WORK_DIR: await mkdtemp(path.join(os.tmpdir(), "renderer-cfg-")) });
    expect(await renderer.exited).toBe(1);
    expect(renderer.lines).toHaveLength(1);
    const line = JSON.parse(renderer.lines[0]!) as { level: string; msg: string };
    expect(line.level).toBe("error");
    expect(line.msg).toMatch(/^renderer not started: RENDERER_TOKEN is not set/);
    await expect(fetch(`${renderer.url}/health`)).rejects.toThrow();
  }, 60_000);

  it("in development mode without a token: listens on 127.0.0.1 only", async () => {
    renderer = await startRendererProcess({ RENDERER_DEV_MODE: "1", WORK_DIR: await mkdtemp(path.join(os.tmpdir(), "renderer-cfg-")) });
    await renderer.ready();
    const listening = renderer.lines.map((l) => JSON.parse(l) as { msg: string; host?: string; dev_mode?: boolean }).find((l) => l.msg === "renderer listening");
    expect(listening).toMatchObject({ host: "127.0.0.1", dev_mode: true });
    // Another address of this machine (when it has one) is not served.
    const other = Object.values(os.networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal);
    if (other) await expect(fetch(`http://${other.address}:${new URL(renderer.url).port}/health`, { signal: AbortSignal.timeout(3000) })).rejects.toThrow();
    renderer.child.kill("SIGTERM");
    expect(await renderer.exited).toBe(0);
  }, 60_000);
});
