import { limitText } from "./text-limits";
import type { MomentKind, SubjectType, TitleTemplates } from "./title-templates";
import { LIMITS } from "./types";

/** What a title is about, finished for the template (quoted, listed); `key` compares subjects across moments. */
export interface TitleSubject {
  type: SubjectType | "label";
  text: string;
  key: string;
}

export interface PickedTitle {
  title: string;
  /** Which template wrote it ("hype.chat.2"), for tests and logs. */
  template: string;
  subject: TitleSubject;
}

/** FNV-1a of a string: a stable per-job starting point in each template list. */
export function jobSeed(parts: readonly (string | number | null | undefined)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.map((p) => String(p ?? "")).join("\u0001")) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Kinds whose plain templates also describe a moment of this kind, once its own are used up in the job. */
const ALSO_TRUE: Record<MomentKind, MomentKind[]> = { hype: ["streamer", "audience"], audience: [], streamer: [] };

/** The subject of the plain templates: the kind of event alone, with the game when known. */
export function plainSubject(templates: TitleTemplates, game: string | null): TitleSubject {
  return { type: "plain", text: templates.inGame(game), key: `plain:${game ?? ""}` };
}

/**
 * Picks the titles of one job in moment order. Subjects no earlier title used come first; within a kind and
 * subject type the templates are taken in turn from a per-job starting point, so moments of the same kind read
 * differently and two jobs do not start alike; a template is never used twice with the same subject, and a title
 * never twice. Only when every template of every subject the moment offers has been used with it does a
 * template repeat with its subject; distinctTitles then settles the title with the time in the VOD.
 */
export class TitlePicker {
  private readonly pairs = new Set<string>();
  private readonly titles = new Set<string>();
  private readonly subjects = new Set<string>();
  private readonly turns = new Map<string, number>();

  constructor(
    private readonly templates: TitleTemplates,
    private readonly seed: number,
  ) {}

  /** `candidates` best first; without a plain subject (the game) among them, one is tried last. */
  pick(kind: MomentKind, candidates: readonly TitleSubject[], name: string, game: string | null): PickedTitle {
    const all = candidates.some((c) => c.type === "plain") ? [...candidates] : [...candidates, plainSubject(this.templates, game)];
    const fresh = all.filter((c) => c.type === "plain" || c.type === "label" || !this.subjects.has(c.key));
    for (const subject of [...fresh, ...all]) {
      const got = this.tryTemplates(kind, subject, name);
      if (got) return got;
    }
    // A hype moment is both chat's and the streamer's: their plain wordings are true of it too.
    const plain = all.find((c) => c.type === "plain")!;
    for (const other of ALSO_TRUE[kind]) {
      const got = this.tryTemplates(other, plain, name);
      if (got) return got;
    }
    // Every template already said this: reuse the first (distinctTitles adds the time).
    const subject = all[0]!;
    const list = this.list(kind, subject);
    return { title: this.render(list[0]!, subject, name), template: `${this.cell(kind, subject)}.0`, subject };
  }

  private cell(kind: MomentKind, subject: TitleSubject): string {
    return subject.type === "label" ? "label" : `${kind}.${subject.type}`;
  }

  private list(kind: MomentKind, subject: TitleSubject): ((name: string, s: string) => string)[] {
    return subject.type === "label" ? this.templates.labelled : this.templates.moments[kind][subject.type];
  }

  private render(template: (name: string, s: string) => string, subject: TitleSubject, name: string): string {
    return limitText(template(name, subject.text), LIMITS.title);
  }

  private tryTemplates(kind: MomentKind, subject: TitleSubject, name: string): PickedTitle | null {
    const cell = this.cell(kind, subject);
    const list = this.list(kind, subject);
    const turn = this.turns.get(cell) ?? 0;
    for (let j = 0; j < list.length; j++) {
      const i = (this.seed + turn + j) % list.length;
      const template = `${cell}.${i}`;
      if (this.pairs.has(`${template}|${subject.key}`)) continue;
      const title = this.render(list[i]!, subject, name);
      if (this.titles.has(title.toLowerCase())) continue;
      this.pairs.add(`${template}|${subject.key}`);
      this.titles.add(title.toLowerCase());
      this.subjects.add(subject.key);
      this.turns.set(cell, turn + j + 1);
      return { title, template, subject };
    }
    return null;
  }
}
