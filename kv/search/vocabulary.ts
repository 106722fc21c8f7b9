/**
 * The vocabulary applied to a text's words: a phrase of the table (`react js`, `power bi`, `sr`)
 * found among a text's words stands for its canonical form, and a light English stemmer gives each
 * word its stem (engineering: engineer, developers: develop, nursing and nurse: nurs), so a job's
 * text and a seeker's words meet however either is spelled. The index adds the canonical forms
 * beside the words it reads; a query's phrase is replaced by its canonical form.
 */
import { BOUND_PHRASES, ROLES, SKILLS, WHOLE_WORDS } from "./vocabulary-data.ts";

/** A word without the dots and hyphens inside it: `react.js` and `full-stack` join up. */
export const collapse = (word: string) =>
  word.indexOf(".") < 0 && word.indexOf("-") < 0 && word.indexOf(" ") < 0
    ? word
    : word.replace(/(?<=[\p{L}\p{N}])[.\s-]+(?=[\p{L}\p{N}])/gu, "");

/** Each spelling, collapsed, to the words of its canonical form. */
const CANONICAL = new Map<string, string[]>();
/** Every beginning of a collapsed spelling: a phrase is read on only while it may still match. */
const BEGINNINGS = new Set<string>();
/**
 * The words a phrase of several may start with: a spelling's first word, or a whole spelling
 * (`react` of `react js`). Any other word is looked up alone, so job text costs one lookup a word.
 */
const FIRST_WORDS = new Set<string>();
for (const entry of [...SKILLS, ...ROLES]) {
  const canonical = entry[0].split(" ");
  for (const spelling of entry) {
    const key = collapse(spelling);
    CANONICAL.set(key, canonical);
    FIRST_WORDS.add(key);
    FIRST_WORDS.add(collapse(spelling.split(" ")[0]));
    for (let end = 1; end < key.length; end++) BEGINNINGS.add(key.slice(0, end));
  }
}

/** A phrase whose word is bound (BOUND_PHRASES): the one term it is, and the word it binds. */
export interface BoundPhrase {
  /** The phrase's words joined by a space, a term no word of text can be. */
  term: string;
  bound: string;
}

/** Each bound phrase by its canonical form's words joined by a space. */
const BOUND = new Map<string, BoundPhrase>(
  BOUND_PHRASES.map(({ phrase, bound }) => [phrase, { term: phrase, bound }]),
);
/** Each bound phrase's spellings of two words (`lead gen`) with the place of the word it binds. */
const BOUND_PAIRS = new Map<string, { phrase: BoundPhrase; at: number }>();
/** The first words of those spellings: any other word starts none, at one lookup. */
const BOUND_FIRSTS = new Set<string>();
for (const entry of [...SKILLS, ...ROLES]) {
  const phrase = BOUND.get(entry[0]);
  if (!phrase) continue;
  for (const spelling of entry) {
    const words = spelling.split(" ");
    const at = words.indexOf(phrase.bound);
    if (words.length !== 2 || at < 0) continue;
    BOUND_PAIRS.set(spelling, { phrase, at });
    BOUND_FIRSTS.add(words[0]);
  }
}

/** The bound phrase a canonical form is, if it is one. */
export const boundPhrase = (canonical: readonly string[]): BoundPhrase | undefined =>
  BOUND.get(canonical.join(" "));

/**
 * Where `words` (a text's, in order) hold a bound phrase: the places of the words it binds, and
 * the phrases' terms.
 */
export function boundIn(words: readonly string[]): { places: Set<number>; terms: string[] } | null {
  let found: { places: Set<number>; terms: string[] } | null = null;
  for (let i = 0; i + 1 < words.length; i++) {
    if (!BOUND_FIRSTS.has(words[i])) continue;
    const pair = BOUND_PAIRS.get(`${words[i]} ${words[i + 1]}`);
    if (!pair) continue;
    found ??= { places: new Set(), terms: [] };
    found.places.add(i + pair.at);
    found.terms.push(pair.phrase.term);
  }
  return found;
}

/** The canonical form of a collapsed spelling (`reactjs`: react), if the vocabulary has one. */
export const canonicalOf = (key: string): string[] | undefined => CANONICAL.get(key);

/**
 * A word with a grade or version joined on (`sde1`, `sde-ii`, `angular2`) as the word it grades,
 * when that is a word the vocabulary knows and the whole is not (`web3`, `ec2` stay; a taxi is no
 * tax: a numeral of letters needs its hyphen).
 */
export function withoutLevel(word: string): string {
  const graded = /^(\p{L}{2,})(?:-?\d|-(?:i{1,3}|iv))$/u.exec(word);
  if (!graded || canonicalOf(collapse(word))) return word;
  const [, head] = graded;
  return canonicalOf(head) || isKnownStem(stem(head)) ? head : word;
}

/** Words the stemmer leaves whole: the skills' canonical forms and the listed exceptions. */
const WHOLE = new Set<string>(WHOLE_WORDS);
for (const entry of SKILLS) for (const word of entry[0].split(" ")) WHOLE.add(word);

/**
 * Whether the stemmer keeps `word` whole: such a word is no form of a shorter one (a customer is
 * not a custom, a sales job's leads not a team's lead).
 */
export const isWholeWord = (word: string): boolean => WHOLE.has(word);

/** A phrase of the vocabulary among `words`: where it starts, how many words, its canonical form. */
export interface Phrase {
  at: number;
  length: number;
  canonical: string[];
}

/** The vocabulary's phrases in `words`, left to right, the longest at each place. */
export function phrasesIn(words: readonly string[]): Phrase[] {
  const found: Phrase[] = [];
  for (let at = 0; at < words.length;) {
    // A title's grade joined on is the title's (SDE-1, as `sde 1` is asked).
    const first = collapse(withoutLevel(words[at]));
    let phrase: Phrase | null = null;
    if (FIRST_WORDS.has(first)) {
      const alone = CANONICAL.get(first);
      if (alone) phrase = { at, length: 1, canonical: alone };
      let key = first;
      for (let end = at + 1; end < words.length && BEGINNINGS.has(key); end++) {
        key += collapse(words[end]);
        const canonical = CANONICAL.get(key);
        if (canonical) phrase = { at, length: end - at + 1, canonical };
      }
    }
    if (phrase) {
      found.push(phrase);
      at += phrase.length;
    } else at++;
  }
  return found;
}

const VOWEL = /[aeiouy]/;

/** A doubled last letter undone (programm: program), but not ll, ss or zz (sell, pass). */
const undouble = (root: string) => /([^lsz])\1$/.test(root) ? root.slice(0, -1) : root;

/**
 * Stems already worked out: indexing reads the same words again and again. Bounded in bytes (two
 * a character and an entry's overhead) and emptied when full: the words of job text are few.
 */
const stems = new Map<string, string>();
const STEMS_BUDGET = 1024 * 1024;
let stemBytes = 0;

/**
 * The stem of a folded word: plurals, then a verb's noun made the verb (-ment, -ation, -ator,
 * -ization), then -ing, -ed or -er, then a silent final e taken off.
 * Short words, words with digits or symbols, skill names and the listed exceptions stay whole;
 * a root must keep three letters and a vowel (string, spring and need stay whole).
 */
export function stem(word: string): string {
  if (word.length < 4) return word;
  let found = stems.get(word);
  if (found === undefined) {
    found = stemOf(word);
    stemBytes += 2 * (word.length + found.length) + 80;
    if (stemBytes > STEMS_BUDGET) {
      stems.clear();
      stemBytes = 0;
    }
    stems.set(word, found);
  }
  return found;
}

function stemOf(word: string): string {
  if (!/^[a-z]+$/.test(word) || WHOLE.has(word)) return word;
  // British and American spellings: optimisation is optimization, analyse is analyze.
  let w = word.replace(/isation(s?)$/, "ization$1").replace(/yse([sd]?)$/, "yze$1")
    .replace(/ysing$/, "yzing");
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (/(sses|ches|shes|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is|os)$/.test(w)) w = w.slice(0, -1);
  if (WHOLE.has(w)) return w;
  // The nouns of a verb: development is develop, automation and automator automate, organization
  // organize. The root must be long enough to be a word of its own (station is not st, payment
  // not pay); verbs ending in -ment (implement) are listed whole.
  if (w.endsWith("ization")) w = w.slice(0, -5) + "e";
  else if (/[a-z]{4}(ation|ator)$/.test(w)) w = w.replace(/(ation|ator)$/, "ate");
  else if (/[a-z]{5}ment$/.test(w)) w = w.slice(0, -4);
  for (const suffix of ["ing", "ed", "er"]) {
    if (!w.endsWith(suffix)) continue;
    const root = w.slice(0, -suffix.length);
    // engineer and career are whole; speed and need have no -ed.
    if (root.length >= 3 && VOWEL.test(root) && !(suffix !== "ing" && root.endsWith("e"))) {
      w = undouble(root);
    }
    break;
  }
  if (w.length >= 5 && w.endsWith("e") && !/[aeiouy]e$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** The stems of every word of a table's spellings. */
const stemsOf = (table: readonly (readonly string[])[]) =>
  new Set(
    table.flatMap((entry) =>
      entry.flatMap((spelling) => spelling.split(" ").map((part) => stem(collapse(part))))
    ),
  );

/** The stems of every word of the vocabulary's spellings, and of its roles', made at the first ask. */
let knownStems: Set<string> | undefined;
let roleStems: Set<string> | undefined;

/**
 * Whether the stem `word` is of a word the vocabulary knows, in any of its forms (`teachers`:
 * teach): such a word is what it is, and never read as a typo of another (`teacher` is not `tech`).
 */
export function isKnownStem(word: string): boolean {
  knownStems ??= stemsOf([...SKILLS, ...ROLES]);
  return knownStems.has(word);
}

/** Whether the stem `word` is of a role word of the vocabulary (`pilots`: pilot). */
export function isRoleStem(word: string): boolean {
  roleStems ??= stemsOf(ROLES);
  return roleStems.has(word);
}
