import fs from "node:fs/promises";
import { expect } from "vitest";

/**
 * The top-level boxes of an MP4 file in file order, read from their headers (size + type), so a test can say
 * "the index (moov) comes before the media data (mdat)" — what faststart means — without trusting a string
 * search over the first bytes.
 */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const fh = await fs.open(file, "r");
  try {
    const { size } = await fh.stat();
    const header = Buffer.alloc(16);
    const types: string[] = [];
    let at = 0;
    while (at + 8 <= size) {
      await fh.read(header, 0, 16, at);
      let boxSize = header.readUInt32BE(0);
      types.push(header.toString("latin1", 4, 8));
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - at;
      if (boxSize < 8) throw new Error(`corrupt box at ${at} in ${file}`);
      at += boxSize;
    }
    if (at !== size) throw new Error(`boxes of ${file} end at ${at}, file is ${size} bytes`);
    return types;
  } finally {
    await fh.close();
  }
}

/** A progressive-download MP4: ftyp first, then the index, then the media. */
export async function expectFaststart(file: string): Promise<void> {
  const boxes = await topLevelBoxes(file);
  expect(boxes[0], boxes.join(" ")).toBe("ftyp");
  expect(boxes.indexOf("moov"), boxes.join(" ")).toBeGreaterThan(0);
  expect(boxes.indexOf("mdat"), boxes.join(" ")).toBeGreaterThan(boxes.indexOf("moov"));
}
