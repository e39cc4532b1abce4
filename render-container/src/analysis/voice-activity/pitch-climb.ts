/**
 * Which of a stretch's pitched windows are the voice, where some lie more than an octave over its usual pitch
 * (PITCH_RISE.maxSemitones, measure-voice.ts). A window that high is usually not the voice: a music bed's
 * arpeggio sits one to two octaves over a low voice and the voice model hears its notes as speech. But a shout
 * can climb that far: a low voice's "WE DID IT!" read 211-286 Hz over a usual 105-121 Hz (+12 to +15 semitones;
 * source c), and a shouting man's pitch commonly doubles. The two differ in how they get there. A voice glides:
 * its pitch moves a semitone or two from one 32 ms window to the next, so a shout's highest windows are reached
 * from its lower ones by small steps. An instrument's notes jump: an arpeggio moves three to five semitones a
 * note, and a sting's notes over calm talk stand an octave or more apart from the voice's windows around them.
 *
 * So a window over the octave is the voice's where it is joined to a window under it by a chain of windows, each
 * at most `maxGapWindows` windows after the last and at most `maxStepSemitones` from it. Measured on source c's
 * spent held-out seeds 171-184 (six variants): without the octave rule at all, `streamer` found 2-4 more shouts
 * per variant but took calm talk over a music sting for a shout (+1 clip on nothing on the plain and calm sets);
 * with the chain, 1-2 more shouts on three variants and no clip more on nothing or on a distractor anywhere.
 */
export const PITCH_CLIMB = { maxGapWindows: 3, maxStepSemitones: 2.5 } as const;

/** A pitched window: its index among the stretch's windows and its pitch (semitones). */
export interface PitchedWindow {
  w: number;
  pitch: number;
}

/**
 * Per window (in `w` order): 1 where it is the voice's — at most `ceiling`, or joined to such a window by small
 * steps (PITCH_CLIMB) — else 0.
 */
export function voiceWindows(windows: readonly PitchedWindow[], ceiling: number): Uint8Array {
  const n = windows.length;
  const voice = new Uint8Array(n);
  const todo: number[] = [];
  for (let k = 0; k < n; k++) {
    if (windows[k]!.pitch <= ceiling) {
      voice[k] = 1;
      todo.push(k);
    }
  }
  while (todo.length > 0) {
    const k = todo.pop()!;
    const { w, pitch } = windows[k]!;
    for (const dir of [-1, 1]) {
      for (let j = k + dir; j >= 0 && j < n && Math.abs(windows[j]!.w - w) <= PITCH_CLIMB.maxGapWindows; j += dir) {
        if (voice[j] || Math.abs(windows[j]!.pitch - pitch) > PITCH_CLIMB.maxStepSemitones) continue;
        voice[j] = 1;
        todo.push(j);
      }
    }
  }
  return voice;
}
