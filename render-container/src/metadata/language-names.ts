/** English names of common stream languages, so a model prompt can say "Write in German" plainly. */
const NAMES: Record<string, string> = {
  en: "English", es: "Spanish", de: "German", fr: "French", pt: "Portuguese", it: "Italian", nl: "Dutch",
  pl: "Polish", ru: "Russian", uk: "Ukrainian", tr: "Turkish", sv: "Swedish", no: "Norwegian", da: "Danish",
  fi: "Finnish", cs: "Czech", hu: "Hungarian", ro: "Romanian", el: "Greek", ja: "Japanese", ko: "Korean",
  zh: "Chinese", ar: "Arabic", he: "Hebrew", hi: "Hindi", th: "Thai", vi: "Vietnamese", id: "Indonesian",
};

export function languageName(code: string): string {
  return NAMES[code] ?? code;
}
