/**
 * Test audio with sound exactly where a test wants it, and a way to find it again: 16 kHz mono 16-bit wav (the
 * renderer's speech format) with 440 Hz tone bursts, and the bursts read back from samples. Plain TypeScript, no
 * Node APIs: the Workers pool's Workers AI stand-in and the renderer tests' HTTP stand-ins both use it.
 */

/** The 16-bit mono samples of a PCM wav (its "data" chunk). */
export function wavSamples(bytes: Uint8Array): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a wav");
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === "data") {
      const data = bytes.slice(at + 8, Math.min(bytes.length, at + 8 + size));
      return new Int16Array(data.buffer, 0, Math.floor(data.byteLength / 2));
    }
    at += 8 + size + (size % 2);
  }
  throw new Error("no data chunk");
}

/** Stretches of 20 ms frames louder than -40 dBFS, gaps under 100 ms bridged. */
export function soundBursts(pcm: Int16Array, rate: number): { start: number; end: number }[] {
  const frame = rate / 50;
  const out: { start: number; end: number }[] = [];
  for (let i = 0; i + frame <= pcm.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += (pcm[j]! / 32768) ** 2;
    if (Math.sqrt(sum / frame) < 0.01) continue;
    const t = i / rate;
    const last = out.at(-1);
    if (last && t - last.end < 0.1) last.end = t + frame / rate;
    else out.push({ start: t, end: t + frame / rate });
  }
  return out;
}

/** A 16 kHz mono 16-bit wav of silence with 440 Hz tone bursts at the given times (seconds). */
export function toneWav(seconds: number, bursts: readonly { start: number; end: number }[]): Uint8Array {
  const rate = 16_000;
  const n = Math.round(seconds * rate);
  const bytes = new Uint8Array(44 + n * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => (bytes[at + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + n * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, n * 2, true);
  for (const b of bursts) {
    for (let i = Math.round(b.start * rate); i < Math.min(n, Math.round(b.end * rate)); i++) {
      view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), true);
    }
  }
  return bytes;
}
