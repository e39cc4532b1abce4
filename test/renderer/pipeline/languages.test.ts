import { describe, expect, it } from "vitest";
import { jobLanguages } from "../../../render-container/src/pipeline/languages";

describe("jobLanguages", () => {
  const req = (stream_language: string | null, metadata_language: string | null) => ({ stream_language, metadata_language });

  it("detects the stream language from what Twitch reports, and writes metadata in it by default", () => {
    expect(jobLanguages(req(null, null), ["de", "fr"])).toEqual({ stream: "de", metadata: "de" });
    expect(jobLanguages(req(null, null), [null, "es"])).toEqual({ stream: "es", metadata: "es" });
  });

  it("lets stream_language override detection, for captions and metadata", () => {
    expect(jobLanguages(req("fr", null), ["de"])).toEqual({ stream: "fr", metadata: "fr" });
  });

  it("writes metadata in metadata_language whatever the stream language", () => {
    expect(jobLanguages(req(null, "pt"), ["de"])).toEqual({ stream: "de", metadata: "pt" });
    expect(jobLanguages(req("en", "ja"), ["de"])).toEqual({ stream: "en", metadata: "ja" });
  });

  it("treats non-ISO detections (Twitch's \"other\", \"asl\") as unknown, and writes English when nothing is known", () => {
    expect(jobLanguages(req(null, null), ["other", "asl"])).toEqual({ stream: null, metadata: "en" });
    expect(jobLanguages(req(null, null), [undefined, null, ""])).toEqual({ stream: null, metadata: "en" });
    expect(jobLanguages(req(null, null), ["en-GB"])).toEqual({ stream: "en-GB", metadata: "en-GB" });
  });
});
