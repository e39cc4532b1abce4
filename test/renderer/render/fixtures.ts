import { runProcess } from "../../../render-container/src/ffmpeg/process";
import type { Size } from "../../../render-container/src/render/types";
import { makeSourceClip, type RgbFrame, type TestClip } from "../../support/media";

/** The source clip render tests cut from: 20 s of 720p30 starting at VOD 1 h, green facecam top-left. */
export const FACECAM_GREEN: [number, number, number] = [0, 192, 0];
export const SOURCE_START = 3600;

export function renderTestSource(): Promise<TestClip> {
  return makeSourceClip({
    durationSeconds: 20,
    mediaStartSeconds: SOURCE_START,
    // The default facecam region (top-left quarter) of a 1280x720 source.
    facecam: { x: 0, y: 0, w: 320, h: 180, color: "0x00C000" },
    speech: [{ at: 3, text: "we are going to win this game" }],
  });
}

/**
 * Ground truth for frame accuracy: frame `index` of the lavfi pattern the source was encoded from (VOD time
 * SOURCE_START + index/30), with the same facecam box, passed through `vf` (the layout's crop/scale).
 */
export async function truthFrame(index: number, vf: string, size: Size): Promise<RgbFrame> {
  const { stdout } = await runProcess(
    "ffmpeg",
    ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi",
      "-i", `testsrc2=size=1280x720:rate=30,select=eq(n\\,${index}),drawbox=x=0:y=0:w=320:h=180:color=0x00C000:t=fill,${vf}`,
      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { collectStdout: true },
  );
  return { ...size, data: stdout };
}
