/**
 * Words of job text and of a search, the one way both are cut: case and accents folded, split on
 * punctuation, skill names with symbols kept whole (C++, C#, .NET, Node.js, R&D), hyphenated words
 * also joined (full-time is full, time and fulltime), then the vocabulary's canonical forms and
 * each word's stem, so the index and the query always agree.
 */
import { boundIn, boundPhrase, phrasesIn, stem } from "./vocabulary.ts";

/** Lower case without accents: `Zürich` and `zurich` are one word. */
export function fold(text: string): string {
  // Most job text is plain ASCII: nothing to take apart.
  const lower = text.toLowerCase();
  return !/[^ -~\s]/.test(lower) ? lower : lower.normalize("NFD").replace(/\p{M}+/gu, "");
}

/**
 * A word: letters and digits, with inner dots, hyphens or ampersands (node.js, asp.net, full-time,
 * r&d), an optional leading dot (.net), and a trailing `++` or `#` (c++, c#). Trailing dots and
 * commas are punctuation, so `python,` and `end.` are plain words.
 */
const WORD = /\.?[\p{L}\p{N}]+(?:[.&-][\p{L}\p{N}]+)*(?:\+\+|#)?/gu;

/**
 * Words that say nothing about a job: left out of descriptions, so a search for them or a posting
 * list of every job costs nothing.
 */
const STOP_WORDS = new Set(
  ("a an and are as at be by for from has have in is it its of on or our the this to we will with " +
    "you your").split(" "),
);

/** The words of `text` as written, folded, compounds whole. */
export function wholeWords(text: string): string[] {
  return fold(text).match(WORD) ?? [];
}

/**
 * A word and its parts, into `found`: Node.js is found by `node`, ASP.NET by `net`; a hyphenated
 * word is its parts and the parts joined (full-time: full, time, fulltime), but a part of one or
 * two letters is no word (Objective-C is not `c`, go-to-market not `go`), nor is a dotted word's
 * part of one letter (B.E. and B.Sc are not `b`); R&D is one word only.
 */
export function addWithParts(word: string, found: string[]): void {
  if (word.includes("&")) found.push(word);
  else if (word.indexOf("-") > 0) {
    found.push(word.replaceAll("-", ""));
    for (const part of word.split("-")) {
      if (part.length > 2) { for (const piece of wholeWords(part)) addWithParts(piece, found); }
    }
  } else {
    found.push(word);
    if (word.length > 2 && word.indexOf(".", 1) > 0) {
      for (const part of word.split(".")) if (part.length > 1) found.push(part);
    }
  }
}

/** The words of `text` in order with their parts, repeats kept, as written (no stems). */
export function words(text: string): string[] {
  const found: string[] = [];
  for (const word of wholeWords(text)) addWithParts(word, found);
  return found;
}

/**
 * The distinct terms of `text` worth indexing: its words and (unless not `vocabulary`) the
 * canonical forms of the vocabulary's phrases in it, as stems; stop words dropped unless
 * `keepStopWords`. A word a bound phrase binds there (the development of Sales Development) is
 * not a term of its own, the phrase is, unless not `bind`.
 */
export function indexWords(
  text: string,
  keepStopWords = false,
  vocabulary = true,
  bind = true,
): Set<string> {
  const whole = wholeWords(text);
  const found: string[] = [];
  const bound = vocabulary && bind ? boundIn(whole) : null;
  whole.forEach((word, i) => {
    if (!bound?.places.has(i)) addWithParts(word, found);
  });
  if (bound) found.push(...bound.terms);
  for (const { canonical } of vocabulary ? phrasesIn(whole) : []) {
    const phrase = bind ? boundPhrase(canonical) : undefined;
    for (const word of canonical) if (word !== phrase?.bound) addWithParts(word, found);
    if (phrase) found.push(phrase.term);
  }
  const set = new Set<string>();
  for (const word of found) if (keepStopWords || !STOP_WORDS.has(word)) set.add(stem(word));
  return set;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Edits a typo may have: none up to 4 letters, one from 5, two from 9; none for numbers. */
export function typoBudget(word: string): number {
  if (/\p{N}/u.test(word)) return 0;
  const letters = [...word].length;
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0;
}

/**
 * Edits between two words where swapping two neighbouring letters is one edit (optimal string
 * alignment), as people mistype: `pyhton` is one edit from `python`. The search library's fuzzy
 * lookup counts a swap as two, so its candidates are checked with this.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d = new Uint16Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1);
      best = Math.min(best, d[(i - 1) * cols + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2] + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1];
}
