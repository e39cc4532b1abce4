/**
 * Title wording per language, per kind of moment and per subject. Several templates for each, so the titles of
 * one job read differently (local-writer.ts picks them in turn from a per-job starting point). A subject
 * arrives finished: quoted ("said", "chat", a label) or a quoted list ("topic"); `plain` gets " in <game>" or "".
 */
export type MomentKind = "hype" | "audience" | "streamer";
export type SubjectType = "said" | "chat" | "topic" | "plain";

type WithSubject = (name: string, subject: string) => string;
type Plain = (name: string, inGame: string) => string;

export interface KindTemplates {
  /** Something the streamer said (a confidently recognised phrase). */
  said: WithSubject[];
  /** Something chat typed (a phrase or an emote). */
  chat: WithSubject[];
  /** What the streamer talked about (words said more than once, or echoed by chat). */
  topic: WithSubject[];
  plain: Plain[];
}

export interface TitleTemplates {
  moments: Record<MomentKind, KindTemplates>;
  /** A hand-picked moment's label (already quoted when the template wants it plain). */
  labelled: WithSubject[];
  inGame(game: string | null): string;
}

const en: TitleTemplates = {
  inGame: (g) => (g ? ` in ${g}` : ""),
  moments: {
    hype: {
      said: [(n, q) => `${n} yells ${q} and chat erupts`, (n, q) => `${q} \u2013 ${n} and chat lose it`, (n, q) => `${q}: ${n}'s stream erupts`, (n, q) => `Chaos on stream as ${n} goes ${q}`],
      chat: [(n, q) => `${n} and chat lose it: ${q}`, (n, q) => `Chat spams ${q} as ${n} goes off`, (n, q) => `${q} \u2013 pure chaos on ${n}'s stream`, (n, q) => `${n}'s stream erupts, chat: ${q}`],
      topic: [(n, t) => `${n} and chat lose it over ${t}`, (n, t) => `Total chaos over ${t} with ${n}`, (n, t) => `All the hype over ${t}: ${n}`],
      plain: [(n, g) => `${n} and chat lose it${g}`, (n, g) => `Peak hype on ${n}'s stream${g}`, (n, g) => `Pure chaos with ${n}${g}`, (n, g) => `${n}'s stream explodes${g}`, (n, g) => `Chat and ${n} go wild${g}`],
    },
    audience: {
      said: [(n, q) => `Chat loses it when ${n} says ${q}`, (n, q) => `${n} says ${q} and chat can't handle it`, (n, q) => `${q} \u2013 chat reacts to ${n}`],
      chat: [(n, q) => `Chat: ${q} | ${n}`, (n, q) => `${q} floods ${n}'s chat`, (n, q) => `${n}'s chat can't stop typing ${q}`, (n, q) => `Chat goes ${q} on ${n}'s stream`],
      topic: [(n, t) => `Chat goes wild over ${t} | ${n}`, (n, t) => `${n}'s chat reacts to ${t}`, (n, t) => `${n}'s chat can't stop talking about ${t}`],
      plain: [(n, g) => `${n}'s chat goes wild${g}`, (n, g) => `Chat's favourite ${n} moment${g}`, (n, g) => `The moment chat lit up for ${n}${g}`, (n, g) => `${n}'s chat erupts${g}`, (n, g) => `Chat explodes on ${n}'s stream${g}`],
    },
    streamer: {
      said: [(n, q) => `${n}: ${q}`, (n, q) => `${n} can't believe it: ${q}`, (n, q) => `When ${n} says ${q}`, (n, q) => `${q}, says ${n}`],
      chat: [(n, q) => `${n} goes off, chat: ${q}`, (n, q) => `${n} loses it (chat: ${q})`, (n, q) => `${n} reacts and chat goes ${q}`],
      topic: [(n, t) => `${n} goes off about ${t}`, (n, t) => `${n} on ${t}`, (n, t) => `${n} can't stop talking about ${t}`],
      plain: [(n, g) => `${n} goes off${g}`, (n, g) => `${n}'s big reaction${g}`, (n, g) => `${n} loses it${g}`, (n, g) => `${n} can't hold back${g}`, (n, g) => `${n} erupts${g}`],
    },
  },
  labelled: [(n, l) => `${l} | ${n}`, (n, l) => `${n}: ${l}`, (n, l) => `${l} \u2013 with ${n}`],
};

const es: TitleTemplates = {
  inGame: (g) => (g ? ` en ${g}` : ""),
  moments: {
    hype: {
      said: [(n, q) => `${n} grita ${q} y el chat explota`, (n, q) => `${q}: ${n} y el chat pierden la cabeza`, (n, q) => `${q}: caos en el directo de ${n}`],
      chat: [(n, q) => `${n} y el chat pierden la cabeza: ${q}`, (n, q) => `El chat spamea ${q} mientras ${n} se desata`, (n, q) => `${q}: caos total en el directo de ${n}`],
      topic: [(n, t) => `${n} y el chat enloquecen con ${t}`, (n, t) => `Caos total por ${t} con ${n}`, (n, t) => `Todo el hype por ${t}: ${n}`],
      plain: [(n, g) => `${n} y el chat pierden la cabeza${g}`, (n, g) => `Hype máximo en el directo de ${n}${g}`, (n, g) => `Caos total con ${n}${g}`, (n, g) => `El directo de ${n} explota${g}`, (n, g) => `${n} y el chat se vuelven locos${g}`],
    },
    audience: {
      said: [(n, q) => `El chat enloquece cuando ${n} dice ${q}`, (n, q) => `${n} dice ${q} y el chat no puede más`, (n, q) => `${q}: el chat reacciona a ${n}`],
      chat: [(n, q) => `Chat: ${q} | ${n}`, (n, q) => `${q} inunda el chat de ${n}`, (n, q) => `El chat de ${n} no para de escribir ${q}`],
      topic: [(n, t) => `El chat enloquece con ${t} | ${n}`, (n, t) => `El chat de ${n} reacciona a ${t}`, (n, t) => `El chat de ${n} no para de hablar de ${t}`],
      plain: [(n, g) => `El chat de ${n} enloquece${g}`, (n, g) => `El momento favorito del chat de ${n}${g}`, (n, g) => `Cuando el chat de ${n} se encendió${g}`, (n, g) => `El chat de ${n} estalla${g}`, (n, g) => `El chat explota en el directo de ${n}${g}`],
    },
    streamer: {
      said: [(n, q) => `${n}: ${q}`, (n, q) => `${n} no se lo puede creer: ${q}`, (n, q) => `Cuando ${n} dice ${q}`],
      chat: [(n, q) => `${n} se desata y el chat responde ${q}`, (n, q) => `${n} pierde los papeles (chat: ${q})`, (n, q) => `${n} reacciona y el chat: ${q}`],
      topic: [(n, t) => `${n} se desata con ${t}`, (n, t) => `${n} sobre ${t}`, (n, t) => `${n} no para de hablar de ${t}`],
      plain: [(n, g) => `${n} se desata${g}`, (n, g) => `La gran reacción de ${n}${g}`, (n, g) => `${n} pierde los papeles${g}`, (n, g) => `${n} no puede contenerse${g}`, (n, g) => `${n} estalla${g}`],
    },
  },
  labelled: [(n, l) => `${l} | ${n}`, (n, l) => `${n}: ${l}`, (n, l) => `${l}, con ${n}`],
};

const de: TitleTemplates = {
  inGame: (g) => (g ? ` in ${g}` : ""),
  moments: {
    hype: {
      said: [(n, q) => `${n} schreit ${q} und der Chat explodiert`, (n, q) => `${q} \u2013 ${n} und der Chat drehen durch`, (n, q) => `${q}: Chaos im Stream von ${n}`],
      chat: [(n, q) => `${n} und der Chat drehen durch: ${q}`, (n, q) => `Der Chat spammt ${q}, während ${n} ausrastet`, (n, q) => `${q} \u2013 pures Chaos im Stream von ${n}`],
      topic: [(n, t) => `${n} und der Chat drehen bei ${t} durch`, (n, t) => `Totales Chaos um ${t} mit ${n}`, (n, t) => `Voller Hype um ${t}: ${n}`],
      plain: [(n, g) => `${n} und der Chat drehen durch${g}`, (n, g) => `Maximaler Hype bei ${n}${g}`, (n, g) => `Pures Chaos mit ${n}${g}`, (n, g) => `Der Stream von ${n} explodiert${g}`, (n, g) => `${n} und der Chat flippen aus${g}`],
    },
    audience: {
      said: [(n, q) => `Der Chat rastet aus, als ${n} ${q} sagt`, (n, q) => `${n} sagt ${q} und der Chat kann nicht mehr`, (n, q) => `${q} \u2013 der Chat reagiert auf ${n}`],
      chat: [(n, q) => `Chat: ${q} | ${n}`, (n, q) => `${q} flutet den Chat von ${n}`, (n, q) => `Der Chat von ${n} schreibt nur noch ${q}`],
      topic: [(n, t) => `Der Chat dreht bei ${t} durch | ${n}`, (n, t) => `Der Chat von ${n} reagiert auf ${t}`, (n, t) => `Der Chat von ${n} redet nur noch über ${t}`],
      plain: [(n, g) => `Der Chat von ${n} dreht durch${g}`, (n, g) => `Der Lieblingsmoment des Chats von ${n}${g}`, (n, g) => `Als der Chat bei ${n} explodierte${g}`, (n, g) => `Der Chat von ${n} explodiert${g}`, (n, g) => `Der Chat flippt bei ${n} aus${g}`],
    },
    streamer: {
      said: [(n, q) => `${n}: ${q}`, (n, q) => `${n} kann es nicht fassen: ${q}`, (n, q) => `Als ${n} ${q} sagt`],
      chat: [(n, q) => `${n} rastet aus, Chat: ${q}`, (n, q) => `${n} verliert die Fassung (Chat: ${q})`, (n, q) => `${n} reagiert, der Chat: ${q}`],
      topic: [(n, t) => `${n} rastet bei ${t} aus`, (n, t) => `${n} über ${t}`, (n, t) => `${n} kann nicht aufhören, über ${t} zu reden`],
      plain: [(n, g) => `${n} rastet aus${g}`, (n, g) => `Die große Reaktion von ${n}${g}`, (n, g) => `${n} verliert die Fassung${g}`, (n, g) => `${n} kann sich nicht halten${g}`, (n, g) => `${n} explodiert${g}`],
    },
  },
  labelled: [(n, l) => `${l} | ${n}`, (n, l) => `${n}: ${l}`, (n, l) => `${l} \u2013 mit ${n}`],
};

const fr: TitleTemplates = {
  inGame: (g) => (g ? ` sur ${g}` : ""),
  moments: {
    hype: {
      said: [(n, q) => `${n} crie ${q} et le chat explose`, (n, q) => `${q} \u2013 ${n} et le chat perdent la tête`, (n, q) => `${q} : le chaos chez ${n}`],
      chat: [(n, q) => `${n} et le chat perdent la tête : ${q}`, (n, q) => `Le chat spamme ${q} pendant que ${n} s'enflamme`, (n, q) => `${q} \u2013 le chaos total sur le stream de ${n}`],
      topic: [(n, t) => `${n} et le chat s'enflamment pour ${t}`, (n, t) => `Chaos total autour de ${t} avec ${n}`, (n, t) => `Hype maximale autour de ${t} : ${n}`],
      plain: [(n, g) => `${n} et le chat perdent la tête${g}`, (n, g) => `Hype maximale chez ${n}${g}`, (n, g) => `Le chaos total avec ${n}${g}`, (n, g) => `Le stream de ${n} explose${g}`, (n, g) => `${n} et le chat deviennent fous${g}`],
    },
    audience: {
      said: [(n, q) => `Le chat craque quand ${n} dit ${q}`, (n, q) => `${n} dit ${q} et le chat n'en peut plus`, (n, q) => `${q} \u2013 le chat réagit à ${n}`],
      chat: [(n, q) => `Chat : ${q} | ${n}`, (n, q) => `${q} inonde le chat de ${n}`, (n, q) => `Le chat de ${n} n'écrit plus que ${q}`],
      topic: [(n, t) => `Le chat s'enflamme pour ${t} | ${n}`, (n, t) => `Le chat de ${n} réagit à ${t}`, (n, t) => `Le chat de ${n} ne parle que de ${t}`],
      plain: [(n, g) => `Le chat de ${n} s'enflamme${g}`, (n, g) => `Le moment préféré du chat de ${n}${g}`, (n, g) => `Quand le chat de ${n} a explosé${g}`, (n, g) => `Le chat de ${n} explose${g}`, (n, g) => `Le chat devient fou chez ${n}${g}`],
    },
    streamer: {
      said: [(n, q) => `${n} : ${q}`, (n, q) => `${n} n'en revient pas : ${q}`, (n, q) => `Quand ${n} dit ${q}`],
      chat: [(n, q) => `${n} s'enflamme, chat : ${q}`, (n, q) => `${n} perd ses moyens (chat : ${q})`, (n, q) => `${n} réagit, le chat : ${q}`],
      topic: [(n, t) => `${n} s'enflamme sur ${t}`, (n, t) => `${n} parle de ${t}`, (n, t) => `${n} ne s'arrête plus de parler de ${t}`],
      plain: [(n, g) => `${n} s'enflamme${g}`, (n, g) => `La grosse réaction de ${n}${g}`, (n, g) => `${n} perd ses moyens${g}`, (n, g) => `${n} ne se retient plus${g}`, (n, g) => `${n} explose${g}`],
    },
  },
  labelled: [(n, l) => `${l} | ${n}`, (n, l) => `${n} : ${l}`, (n, l) => `${l} \u2013 avec ${n}`],
};

const pt: TitleTemplates = {
  inGame: (g) => (g ? ` em ${g}` : ""),
  moments: {
    hype: {
      said: [(n, q) => `${n} grita ${q} e o chat explode`, (n, q) => `${q} \u2013 ${n} e o chat perdem a linha`, (n, q) => `${q}: caos na live de ${n}`],
      chat: [(n, q) => `${n} e o chat perdem a linha: ${q}`, (n, q) => `O chat spamma ${q} enquanto ${n} se empolga`, (n, q) => `${q} \u2013 caos total na live de ${n}`],
      topic: [(n, t) => `${n} e o chat piram com ${t}`, (n, t) => `Caos total com ${t} na live de ${n}`, (n, t) => `Hype total com ${t}: ${n}`],
      plain: [(n, g) => `${n} e o chat perdem a linha${g}`, (n, g) => `Hype máximo na live de ${n}${g}`, (n, g) => `Caos total com ${n}${g}`, (n, g) => `A live de ${n} explode${g}`, (n, g) => `${n} e o chat enlouquecem${g}`],
    },
    audience: {
      said: [(n, q) => `O chat pira quando ${n} diz ${q}`, (n, q) => `${n} diz ${q} e o chat não aguenta`, (n, q) => `${q} \u2013 o chat reage a ${n}`],
      chat: [(n, q) => `Chat: ${q} | ${n}`, (n, q) => `${q} inunda o chat de ${n}`, (n, q) => `O chat de ${n} só escreve ${q}`],
      topic: [(n, t) => `O chat pira com ${t} | ${n}`, (n, t) => `O chat de ${n} reage a ${t}`, (n, t) => `O chat de ${n} só fala de ${t}`],
      plain: [(n, g) => `O chat de ${n} pira${g}`, (n, g) => `O momento favorito do chat de ${n}${g}`, (n, g) => `Quando o chat de ${n} explodiu${g}`, (n, g) => `O chat de ${n} explode${g}`, (n, g) => `O chat enlouquece na live de ${n}${g}`],
    },
    streamer: {
      said: [(n, q) => `${n}: ${q}`, (n, q) => `${n} não acredita: ${q}`, (n, q) => `Quando ${n} diz ${q}`],
      chat: [(n, q) => `${n} perde a linha, chat: ${q}`, (n, q) => `${n} se descontrola (chat: ${q})`, (n, q) => `${n} reage, e o chat: ${q}`],
      topic: [(n, t) => `${n} perde a linha com ${t}`, (n, t) => `${n} sobre ${t}`, (n, t) => `${n} não para de falar de ${t}`],
      plain: [(n, g) => `${n} perde a linha${g}`, (n, g) => `A grande reação de ${n}${g}`, (n, g) => `${n} se descontrola${g}`, (n, g) => `${n} não se segura${g}`, (n, g) => `${n} explode${g}`],
    },
  },
  labelled: [(n, l) => `${l} | ${n}`, (n, l) => `${n}: ${l}`, (n, l) => `${l} \u2013 com ${n}`],
};

export const TITLE_TEMPLATES: Record<string, TitleTemplates> = { en, es, de, fr, pt };
