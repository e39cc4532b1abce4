import type { EditEvent, EditTimeline } from "./edit-timeline";

/**
 * A reel's edit timeline as OpenTimelineIO JSON (.otio): one Timeline of a video and an audio track, each clip a
 * stretch of the source VOD (an ExternalReference to its URL, with the VOD's whole length as available range).
 *
 * Written with the schema versions OpenTimelineIO has read since its pure-Python releases (0.11, 2019) and still
 * reads (Timeline.1, Stack.1, Track.1, Clip.1, ExternalReference.1, TimeRange.1, RationalTime.1; current releases
 * upgrade Clip.1 to Clip.2 on read), so any NLE plug-in or script of the last years opens it. Times are frames at
 * the timeline's integer rate, the source range on the VOD's clock; each clip's metadata (under `highlights`)
 * carries the piece's exact VOD seconds, its kind and its moment.
 */

const rational = (value: number, rate: number) => ({ OTIO_SCHEMA: "RationalTime.1", rate, value });
const range = (start: number, duration: number, rate: number) => ({ OTIO_SCHEMA: "TimeRange.1", duration: rational(duration, rate), start_time: rational(start, rate) });

function clip(t: EditTimeline, e: EditEvent) {
  return {
    OTIO_SCHEMA: "Clip.1",
    effects: [],
    markers: [],
    media_reference: {
      OTIO_SCHEMA: "ExternalReference.1",
      available_range: range(0, t.source.duration_frames, t.rate),
      metadata: {},
      name: t.source.name,
      target_url: t.source.url,
    },
    metadata: { highlights: { kind: e.kind, moment_id: e.moment_id, vod_start: e.vod_start, vod_end: e.vod_end, record_in: e.record_in } },
    name: e.name,
    source_range: range(e.source_in, e.frames, t.rate),
  };
}

function track(t: EditTimeline, kind: "Video" | "Audio", name: string) {
  return { OTIO_SCHEMA: "Track.1", children: t.events.map((e) => clip(t, e)), effects: [], kind, markers: [], metadata: {}, name, source_range: null };
}

export function formatOtio(t: EditTimeline): string {
  const doc = {
    OTIO_SCHEMA: "Timeline.1",
    // The reel's first frame is 00:00:00:00, as in the .edl and in the reel file itself.
    global_start_time: rational(0, t.rate),
    metadata: { highlights: { run_name: t.run_name, reel: t.reel_name, rate: t.rate, duration_frames: t.duration_frames } },
    name: t.title,
    tracks: { OTIO_SCHEMA: "Stack.1", children: [track(t, "Video", "V1"), track(t, "Audio", "A1")], effects: [], markers: [], metadata: {}, name: "tracks", source_range: null },
  };
  return `${JSON.stringify(doc, null, 4)}\n`;
}
