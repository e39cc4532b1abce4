/** Pronoun forms for English text; other languages' templates mostly need none (see templates.ts). */
export interface PronounForms {
  subject: string;
  object: string;
  possessive: string;
  /** "is" or "are", agreeing with the subject. */
  be: string;
}

const FORMS: Record<string, PronounForms> = {
  they: { subject: "they", object: "them", possessive: "their", be: "are" },
  he: { subject: "he", object: "him", possessive: "his", be: "is" },
  she: { subject: "she", object: "her", possessive: "her", be: "is" },
  it: { subject: "it", object: "it", possessive: "its", be: "is" },
};

/**
 * Reads "she/her", "he/him", "they/them", "She", "he/they" (first listed wins). Unknown sets (neopronouns)
 * return null: templates then repeat the streamer's name instead of guessing.
 */
export function parsePronouns(value: string | null | undefined): PronounForms | null {
  const first = (value ?? "they").trim().toLowerCase().split(/[\/,\s]+/)[0] || "they";
  return FORMS[first] ?? null;
}

/** The grammatical gender templates in gendered languages should use: he -> m, she -> f, otherwise neutral. */
export function pronounGender(value: string | null | undefined): "m" | "f" | "n" {
  const first = (value ?? "").trim().toLowerCase().split(/[\/,\s]+/)[0];
  if (first === "he" || first === "er" || first === "él" || first === "il" || first === "ele") return "m";
  if (first === "she" || first === "sie" || first === "ella" || first === "elle" || first === "ela") return "f";
  return "n";
}
