/**
 * The colour a sender's name is drawn in. Twitch lets each viewer pick any colour; over the overlay's dark
 * background a dark pick (navy, black, dark green) cannot be read, and many viewers never pick one. A colour
 * with too little contrast against the background is lightened towards white (its hue kept, as Twitch's own
 * dark theme does) until it reads; a sender without one gets a bright colour from Twitch's default palette,
 * the same for the same name every time.
 */

/** WCAG contrast a name must reach against the overlay's background (4.5: body text). */
export const MIN_NAME_CONTRAST = 4.5;
/** What names are measured against: the overlay's 75 % black over a mid-grey picture. */
const BACKGROUND = { r: 0x20, g: 0x20, b: 0x20 };

/** Twitch's default name colours that read on a dark background. */
const DEFAULT_PALETTE = ["#FF7F50", "#9ACD32", "#FF4500", "#DAA520", "#1E90FF", "#FF69B4", "#00FF7F", "#5F9EA0", "#D2691E", "#B689F5"];

interface Rgb {
  r: number;
  g: number;
  b: number;
}

function parse(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const n = parseInt(m[1]!, 16);
  return { r: n >> 16, g: (n >> 8) & 0xff, b: n & 0xff };
}

const hex = (c: Rgb) => `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("").toUpperCase()}`;

function luminance(c: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

export function contrastRatio(a: string, b: string = hex(BACKGROUND)): number {
  const la = luminance(parse(a)!);
  const lb = luminance(parse(b)!);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The name's colour as drawn: "#RRGGBB". */
export function readableNameColor(color: string | null, name: string): string {
  const c = color ? parse(color) : null;
  if (!c) return DEFAULT_PALETTE[hashOf(name.toLowerCase()) % DEFAULT_PALETTE.length]!;
  if (contrastRatio(hex(c)) >= MIN_NAME_CONTRAST) return hex(c);
  // Mix with white in small steps: the first mix that reads keeps as much of the viewer's hue as possible.
  for (let k = 0.05; k <= 1; k += 0.05) {
    const mixed = { r: c.r + (255 - c.r) * k, g: c.g + (255 - c.g) * k, b: c.b + (255 - c.b) * k };
    if (contrastRatio(hex(mixed)) >= MIN_NAME_CONTRAST) return hex(mixed);
  }
  return "#FFFFFF";
}

function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** ASS colour override value for "#RRGGBB" (&HBBGGRR&). */
export function assColor(color: string): string {
  const c = parse(color)!;
  return `&H${[c.b, c.g, c.r].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("").toUpperCase()}&`;
}
