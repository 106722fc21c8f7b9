/**
 * The search index of a set of jobs: each job gets a number, each word a posting list of the jobs
 * holding it (and in which fields), and the words live in MiniSearch's radix tree, which finds the
 * words a query word reaches by prefix and by typo. A job change appends; a removed job is marked
 * gone and skipped until the owner compacts the index (`wasteful`, `compact`).
 */
import SearchableMap from "minisearch/SearchableMap";
import { companyKey, TRAIT, traitOf } from "./codes.ts";
import { grown, inBoth, Posting } from "./postings.ts";
import { isRemoteLocation, MODE_WORDS } from "./places.ts";
import { CATEGORY_WORDS, type RoleCategory, type WorkMode } from "../job-fields.ts";
import { regionWords } from "../place.ts";
import {
  addWithParts,
  editDistance,
  indexWords,
  isStopWord,
  typoBudget,
  wholeWords,
} from "./text.ts";
import { isKnownStem, isWholeWord, stem } from "./vocabulary.ts";
import {
  FIELD,
  FIELD_VALUE,
  fieldsFor,
  HOW,
  type IndexedDoc,
  PHRASE_BONUS,
  type Term,
  type WordMatch,
} from "./fields.ts";
import {
  keepHolders,
  keepMarked,
  markedLive,
  markFirst,
  markGroup,
  markLast,
  markWord,
  scoresOf,
  settle,
  takeBest,
} from "./marks.ts";

/** The endings the stemmer takes off a word, for a slip made in one (`SearchIndex.endingSlips`). */
const SLIPPED_ENDINGS = ["e", "er", "ers", "es", "ing", "ed", "s"];

/** A copy of a per-job array with only the jobs `renumbered` keeps (to -1 for the others). */
export function renumberedCopy<T extends Column>(
  array: T,
  renumbered: Int32Array,
  kept: number,
): T {
  const copy = new (array.constructor as new (size: number) => T)(kept);
  for (let doc = 0; doc < renumbered.length; doc++) {
    if (renumbered[doc] >= 0) copy[renumbered[doc]] = array[doc];
  }
  return copy;
}

/**
 * The index's per-job columns and the kind of array each is. `put` grows them and `compact` and
 * the catalogue's snapshot (index-state.ts) carry them by this list, so a column is named in this
 * file only: here, as a field of `SearchIndex` and where `put` fills it.
 */
export const COLUMNS = {
  posted: Float64Array,
  roleOf: Int32Array,
  /** Experience, employment type, work mode, category and salary band (`traitOf` in codes.ts). */
  traitOf: Uint16Array,
  payTop: Float64Array,
  companyOf: Int32Array,
} as const;
export type ColumnName = keyof typeof COLUMNS;
export type Columns = { [Name in ColumnName]: InstanceType<(typeof COLUMNS)[Name]> };
export const COLUMN_NAMES = Object.keys(COLUMNS) as ColumnName[];
/** A column of any kind, for the code that carries every column alike. */
type Column = Uint8Array | Uint16Array | Int32Array | Float64Array;

/**
 * Filter words' masks `SearchIndex.admitted` keeps: more than the few such words a board's
 * searches use (senior, fresher, internship, full time, IT jobs) in the combinations they come in.
 */
const ADMITTED_MASKS = 8;

/** A known word also finds its longer forms up to this many letters more (engineer, engineers). */
const INFLECTION_LETTERS = 3;

export class SearchIndex implements Columns {
  /**
   * `bindsPhrases`: whether a word a bound phrase binds is left to the phrase
   * (`BOUND_PHRASES`), as the public search's vocabulary asks; the admin search, whose queries
   * read no vocabulary, finds every word of a role as written.
   */
  constructor(private readonly bindsPhrases = true) {}

  /** Each word's posting list; the tree holds the same words for prefix and typo lookups. */
  readonly postings = new Map<string, Posting>();
  private readonly words = new SearchableMap<Posting>();
  /** Job number -> id; a removed job's entry stays until a rebuild. */
  ids: string[] = [];
  alive = new Uint8Array(0);
  posted = new Float64Array(0);
  roleOf = new Int32Array(0);
  traitOf = new Uint16Array(0);
  payTop = new Float64Array(0);
  companyOf = new Int32Array(0);
  readonly numberOf = new Map<string, number>();
  /** Distinct roles by code, and the jobs of each (for Similar Jobs). */
  readonly roleNames: string[] = [];
  readonly roleCode = new Map<string, number>();
  readonly roleDocs: Posting[] = [];
  /** Distinct companies by code (the first spelling met), and the code of each in lower case. */
  readonly companyNames: string[] = [];
  readonly companyCode = new Map<string, number>();
  private gone = 0;
  private live: Uint32Array | null = null;
  /** `admitted`'s masks by their filter words, the most recently asked last. */
  private readonly admittedBy = new Map<string, Uint8Array>();
  /** `windowsAt`'s answer, with the live jobs' posting times nearest each start either side. */
  private windows: { of: Uint8Array; lastBefore: Float64Array; firstFrom: Float64Array } | null =
    null;

  get size(): number {
    return this.numberOf.size;
  }

  /** Job numbers handed out so far, removed ones included. */
  get span(): number {
    return this.ids.length;
  }

  /** Removed jobs outnumber live ones: a rebuild would halve the memory and the work. */
  get wasteful(): boolean {
    return this.gone > 1024 && this.gone > this.size;
  }

  /** The live jobs' numbers, ascending. */
  liveDocs(): Uint32Array {
    if (!this.live) {
      this.live = new Uint32Array(this.size);
      for (let doc = 0, i = 0; doc < this.span; doc++) if (this.alive[doc]) this.live[i++] = doc;
    }
    return this.live;
  }

  /**
   * The live jobs `mask` marks, ascending: a search without words and with a place every found job
   * is in goes through these rather than every live job. In the reused array `match` leaves its
   * first word's jobs in, which such a search has not used.
   */
  liveDocsIn(mask: Uint8Array): Uint32Array {
    this.scratch();
    const into = this.work.first;
    return into.subarray(0, markedLive(mask, this.alive, Math.min(mask.length, this.span), into));
  }

  /**
   * The posting time of the oldest live job in `window` of the last `windowsAt` (the first window
   * that holds it); Infinity when it holds none.
   */
  oldestIn(window: number): number {
    return this.windows?.firstFrom[window] ?? Infinity;
  }

  /**
   * Per job, how many of `starts` it was posted before (newest start first): a search's Date
   * posted window. The answer holds for later starts as long as no live job was posted between
   * the old and the new, so searches read one byte a job rather than its time against each start,
   * and it is worked out again about when a job's window changes (for the server, at most once a
   * minute).
   */
  windowsAt(starts: Float64Array): Uint8Array {
    const kept = this.windows;
    if (
      kept && kept.of.length === this.span &&
      starts.every((start, w) => kept.lastBefore[w] < start && start <= kept.firstFrom[w])
    ) return kept.of;
    const { alive, posted, span } = this;
    const of = kept?.of.length === span ? kept.of : new Uint8Array(span);
    const lastBefore = new Float64Array(starts.length).fill(-Infinity);
    const firstFrom = new Float64Array(starts.length).fill(Infinity);
    for (let doc = 0; doc < span; doc++) {
      const time = posted[doc];
      let window = 0;
      while (window < starts.length && time < starts[window]) window++;
      of[doc] = window;
      if (alive[doc] === 0) continue;
      // Per start, the newest job older than it (in the next window) and the oldest within it:
      // when a window is empty, the checks of the starts beside it hold its jobs' neighbours.
      if (window > 0 && time > lastBefore[window - 1]) lastBefore[window - 1] = time;
      if (window < starts.length && time < firstFrom[window]) firstFrom[window] = time;
    }
    this.windows = { of, lastBefore, firstFrom };
    return of;
  }

  /** Adds a job, or replaces the one with its id. */
  put(doc: IndexedDoc): void {
    this.remove(doc.id);
    this.changed();
    this.windows = null;
    const n = this.ids.length;
    this.ids.push(doc.id);
    this.numberOf.set(doc.id, n);
    // Every column has the room `alive` has: they grow together, by doubling.
    if (n >= this.alive.length) {
      this.alive = grown(this.alive, n + 1, n);
      for (const name of COLUMN_NAMES) this.setColumn(name, grown(this[name] as Column, n + 1, n));
    }
    this.alive[n] = 1;
    this.traitOf[n] = traitOf(doc);
    this.payTop[n] = doc.payTop ?? 0;
    this.companyOf[n] = this.companyCodeOf(doc.companyName);
    this.posted[n] = doc.posted;
    let role = this.roleCode.get(doc.role);
    if (role === undefined) {
      role = this.roleNames.push(doc.role) - 1;
      this.roleCode.set(doc.role, role);
      this.roleDocs.push(new Posting());
    }
    this.roleOf[n] = role;
    this.roleDocs[role].add(n, FIELD.role);

    const fields = new Map<string, number>();
    // Names (company, place, job ID) are read as written: the vocabulary is for job text.
    const note = (text: string | undefined, field: number, keepStopWords = true, name = false) => {
      if (!text) return;
      for (const word of indexWords(text, keepStopWords, !name, this.bindsPhrases)) {
        fields.set(word, (fields.get(word) ?? 0) | field);
      }
    };
    note(doc.role, FIELD.role);
    // The role's words as written, two neighbours written as one among them (Full Stack:
    // fullstack), a word the vocabulary reads as one it begins with (ReactJS: react, Golang: go),
    // and a phrase a bound phrase binds: the rest of its words are the vocabulary's (Tutor: teacher).
    const written = indexWords(doc.role, true, false);
    const words = wholeWords(doc.role);
    for (let i = 1; i < words.length; i++) written.add(stem(words[i - 1] + words[i]));
    const begun = (word: string) => words.some((whole) => whole.startsWith(word));
    for (const [word, bits] of fields) {
      if (written.has(word) || word.includes(" ") || begun(word)) {
        fields.set(word, bits | FIELD.roleAsWritten);
      }
    }
    note(doc.skills?.join("\n"), FIELD.skills);
    note(doc.companyName, FIELD.company, true, true);
    note(doc.description, FIELD.description, false);
    note(CATEGORY_WORDS[doc.category as RoleCategory], FIELD.description);
    note(doc.location, FIELD.location, true, true);
    // A job holds its work mode's word (MODE_WORDS): a remote one whenever its work mode is
    // Remote, as its JobPosting's TELECOMMUTE is, and however its location says so (work from
    // home, WFH, anywhere).
    const modes = [
      MODE_WORDS[doc.workMode as WorkMode],
      isRemoteLocation(doc.location) && MODE_WORDS.Remote,
    ];
    for (const word of modes) if (word) fields.set(word, (fields.get(word) ?? 0) | FIELD.location);
    // A job in Bangalore is in Karnataka and in India, whether or not its location says so.
    note(regionWords(doc.location), FIELD.location, true, true);
    note(doc.jobId, FIELD.jobId, true, true);
    for (const [word, bits] of fields) {
      let posting = this.postings.get(word);
      if (!posting) {
        posting = new Posting();
        this.postings.set(word, posting);
        this.words.set(word, posting);
      }
      posting.add(n, bits);
    }
  }

  /** The company's code, given one when it is new; case does not make another company. */
  private companyCodeOf(name: string): number {
    const key = companyKey(name);
    let code = this.companyCode.get(key);
    if (code === undefined) {
      code = this.companyNames.push(name) - 1;
      this.companyCode.set(key, code);
    }
    return code;
  }

  /**
   * Drops the removed jobs' entries, renumbering the rest in their order, so memory and work
   * follow the live jobs again. Words no job holds any more leave the tree.
   */
  compact(): void {
    const span = this.span;
    const renumbered = new Int32Array(span).fill(-1);
    let live = 0;
    for (let doc = 0; doc < span; doc++) if (this.alive[doc]) renumbered[doc] = live++;
    const keep = <T extends Column>(array: T): T => renumberedCopy(array, renumbered, live);
    const ids: string[] = new Array(live);
    for (let doc = 0; doc < span; doc++) {
      if (renumbered[doc] >= 0) ids[renumbered[doc]] = this.ids[doc];
    }
    this.ids = ids;
    this.alive = keep(this.alive);
    for (const name of COLUMN_NAMES) this.setColumn(name, keep(this[name] as Column));
    ids.forEach((id, doc) => this.numberOf.set(id, doc));
    for (const [word, posting] of this.postings) {
      if (posting.renumber(renumbered) === 0) {
        this.postings.delete(word);
        this.words.delete(word);
      }
    }
    for (const posting of this.roleDocs) posting.renumber(renumbered);
    this.gone = 0;
    this.changed();
  }

  /** Puts in a column (of the kind `COLUMNS` names). */
  setColumn(name: ColumnName, column: Column): void {
    (this as Record<ColumnName, Column>)[name] = column;
    this.windows = null;
    this.changed();
  }

  /** Takes in a word's posting list whole (an index read back from a snapshot). */
  adopt(word: string, posting: Posting): void {
    this.postings.set(word, posting);
    this.words.set(word, posting);
    this.admittedBy.clear();
  }

  /** Forgets what was worked out from the jobs as they were. */
  private changed(): void {
    this.live = null;
    this.admittedBy.clear();
  }

  remove(id: string): void {
    const n = this.numberOf.get(id);
    if (n === undefined) return;
    this.numberOf.delete(id);
    this.alive[n] = 0;
    this.changed();
    this.gone++;
  }

  /**
   * The words a query word finds. A word of one or two letters finds itself only; a longer one
   * also its longer forms when it is a known word (engineer: engineers), or every word it begins
   * when it is not (eng: engineer, english); a word found nowhere is taken as a typo of the
   * nearest words (one edit from 5 letters, two from 9), unless `typos` is false (a word the
   * vocabulary knows).
   */
  expand(word: string, typos = true, typed = word): WordMatch[] {
    const exact = this.postings.get(word);
    const found: WordMatch[] = exact ? [{ posting: exact, how: HOW.exact, word }] : [];
    // A stem no job holds, cut from a longer word, is no beginning the seeker typed: `manger` is
    // not `mang` of Mangala Apps. Such a word begins only what it begins as typed, unless all it
    // lost is a plural's s (`maths`: mathematics).
    const cut = !exact && typed.length > word.length;
    const plural = typed === `${word}s` || typed === `${word}es`;
    const start = cut && !plural ? typed : word;
    if ([...start].length >= 3 && !/^\p{N}+$/u.test(start)) {
      for (const [longer, posting] of this.words.atPrefix(start)) {
        // A bound phrase (`security guard`) is found by its phrase, never as a longer word.
        if (longer === word || longer.includes(" ")) continue;
        // A word the vocabulary knows begins no other word but its plural, even where no job
        // holds it: `scala` is not scalable, `mis` no Mistry; `api` finds APIs.
        if (!exact && !typos && longer !== `${start}s` && longer !== `${start}es`) continue;
        if (exact && (longer.length - word.length > INFLECTION_LETTERS || isWholeWord(longer))) {
          continue;
        }
        found.push({ posting, how: exact ? HOW.inflection : HOW.prefix, word: longer });
      }
    }
    // A cut stem may be one letter off as the word typed may (`nurce`: its stem nurc is too short
    // for a typo of its own), and loses no more letters (`mang` is not `man`); one of three
    // letters is too short to be off at all (baker's bak is no bank, rider's rid no R&D).
    const budget = !typos || (cut && [...word].length < 4)
      ? 0
      : cut
      ? Math.min(1, typoBudget(typed))
      : typoBudget(word);
    if (found.length === 0 && budget > 0) {
      // The tree counts a swap of two letters as two edits; ask one more and check them properly.
      for (const [near, [posting]] of this.words.fuzzyGet(word, budget + 1)) {
        if (cut && near.length < word.length) continue;
        // A seeker's slip is seldom the first letter: a word beginning otherwise is another word
        // (hacker is no packer, teller no seller, acountent no content).
        if (near[0] !== word[0]) continue;
        if (editDistance(word, near) <= budget) found.push({ posting, how: HOW.typo, word: near });
      }
    }
    if (found.length === 0 && budget > 0) found.push(...this.endingSlips(typed));
    return found;
  }

  /**
   * The words whose forms `typed` is a slip of where the stem hid it: the index holds stems, and a
   * slip in a word's ending (`casheir`, `managre`, `nurese`) leaves a stem that is no typo of
   * theirs (cashi, manag, nurs). A stem beginning as the word typed does, with an ending a word
   * form takes, is tried as the word typed; the beginning is a prefix, so this costs little.
   */
  private endingSlips(typed: string): WordMatch[] {
    // One slip, however long the word: two would let `hospitality` be a hospital's -ing.
    if (typoBudget(typed) === 0) return [];
    const letters = [...typed];
    const found: WordMatch[] = [];
    const start = letters.slice(0, Math.max(3, letters.length - 3)).join("");
    for (const [near, posting] of this.words.atPrefix(start)) {
      if (near.includes(" ") || near.length >= typed.length) continue;
      // A form of the stem the stemmer keeps whole is no slip (a joiner is no join, nor joined).
      if (typed.startsWith(near) && SLIPPED_ENDINGS.includes(typed.slice(near.length))) continue;
      const meant = (ending: string) =>
        editDistance(typed, near + ending) === 1 && stem(near + ending) === near;
      if (SLIPPED_ENDINGS.some(meant)) {
        found.push({ posting, how: HOW.typo, word: near });
      }
    }
    return found;
  }

  /**
   * The words a term finds: its stem's (or, when that finds nothing, the word as typed), the
   * words standing for it, and for a word no job holds, the jobs holding both halves of it
   * (`fullstack`: full and stack).
   */
  termMatches(term: Term): WordMatch[] {
    if (term.either) {
      return term.either.flatMap((alternative) =>
        alternative.standsIn
          ? this.termMatches(alternative).map((match) => ({
            ...match,
            how: HOW.typo,
            roleOnly: true,
          }))
          : this.termMatches(alternative)
      );
    }
    if (term.all) return this.whole(term.all);
    const typos = !term.known;
    let found = this.expand(term.word, typos, term.raw ?? term.word);
    if (found.length === 0 && term.raw && term.raw !== term.word) {
      found = this.expand(term.raw, typos);
    }
    // A doer's -er misspelt as it sounds (`plumbar`, `weldar`, `cashiar`): the doer, as a typo.
    const doer = typos && found.length === 0 && /^\p{L}{4,}[aiou]r$/u.test(term.raw ?? "")
      ? this.postings.get(stem(`${term.raw!.slice(0, -2)}er`))
      : undefined;
    if (doer) found.push({ posting: doer, how: HOW.typo, word: term.raw! });
    for (const word of term.also ?? []) {
      const posting = this.postings.get(word);
      if (posting) found.push({ posting, how: HOW.exact, word });
    }
    if (!this.postings.has(term.word)) found.push(...this.halves(term.word));
    if (term.typed !== undefined && found.length > 0) {
      found.push(...this.asTyped(term.typed, found));
    }
    return found;
  }

  /**
   * For words the vocabulary read as another (`golang`: go): the jobs `found` whose role says them
   * as typed, counted as saying it; the rest of `found` then counts as not. No more jobs: a word as
   * typed is also a part of others (js of Node.js), which the vocabulary does not read so.
   */
  private asTyped(typed: readonly string[], found: WordMatch[]): WordMatch[] {
    // Words typed apart may be written as one (`gen ai`: GenAI).
    const joined = typed.length > 1 ? this.postings.get(stem(typed.join(""))) : undefined;
    const holders = joined ? [joined] : typed.map((word) => this.postings.get(word));
    if (holders.some((posting) => !posting)) return [];
    const [rarest, ...others] = (holders as Posting[]).toSorted((a, b) => a.size - b.size);
    const inRole = new Posting();
    for (let i = 0; i < rarest.size; i++) {
      const doc = rarest.docs[i];
      if (
        rarest.fields[i] & FIELD.role &&
        others.every((posting) => posting.fieldsAt(doc) & FIELD.role) &&
        found.some(({ posting }) => posting.fieldsAt(doc) !== 0)
      ) {
        inRole.add(doc, FIELD.role | FIELD.roleAsWritten);
      }
    }
    for (const match of found) match.unwritten = true;
    return [{ posting: inRole, how: HOW.exact, word: typed.join(" ") }];
  }

  /** The jobs holding every one of a phrase's stems, as they are written. */
  private whole(stems: readonly string[]): WordMatch[] {
    let posting: Posting | undefined;
    for (const word of stems) {
      const next = this.postings.get(word);
      if (!next) return [];
      posting = posting ? inBoth(posting, next) : next;
    }
    return posting?.size ? [{ posting, how: HOW.exact, word: stems.join(" ") }] : [];
  }

  /** The jobs holding both halves of a word written as one, each split of it. */
  private halves(word: string): WordMatch[] {
    const found: WordMatch[] = [];
    if (word.length < 5 || !/^\p{L}+$/u.test(word)) return found;
    for (let at = 2; at <= word.length - 2; at++) {
      const [head, tail] = [word.slice(0, at), word.slice(at)];
      if (isStopWord(head) || isStopWord(tail)) continue;
      // A short common word and another are no word written as one (`workday` is no "work" and a
      // "day" apart); a known skill or role and another are (`javadeveloper`), as are two of four
      // letters or more (`tamilnadu`).
      const long = head.length >= 4 && tail.length >= 4;
      if (!long && !isKnownStem(stem(head)) && !isKnownStem(stem(tail))) continue;
      const a = this.postings.get(stem(head));
      const b = this.postings.get(stem(tail));
      if (a && b) found.push({ posting: inBoth(a, b), how: HOW.inflection, word });
    }
    return found;
  }

  /**
   * The live jobs holding every word (in a field of `fields`) that `within` marks (when given), in
   * no particular order, with each job's score beside it: per word the best of its matches, field
   * first, then how it was reached. Null when there are no words. Nothing as long as the index is
   * allocated per query (a broad word's arrays would keep the collector busy): the answer lives in
   * the index's reused arrays, so read it before the next `match`; the per-job work arrays are left
   * zeroed.
   */
  match(
    terms: Term[],
    fields: number,
    within: Uint8Array | null = null,
  ): { docs: Uint32Array; score: Uint16Array } | null {
    const useful = terms.filter((term) => !isStopWord(term.word));
    if (useful.length === 0) return null;
    const { best, sum, round: roundOf } = this.scratch();
    const { first, next, score: scores } = this.work;
    const matched = this.matched;
    // Rarest word first: every later word only looks at the jobs the earlier ones kept.
    const expanded = useful.map((term) => this.termMatches(term)).map((matches) => ({
      matches,
      postings: matches.reduce((total, match) => total + match.posting.size, 0),
    })).sort((a, b) => a.postings - b.postings);
    // Of two words, a broad one of one posting goes last even when the other has a few more
    // entries in several postings ("python data": data and database): it is then looked up for
    // each of the other's jobs, rather than the other's postings marked and summed over its own.
    const [one, other] = expanded;
    if (
      expanded.length === 2 && one.matches.length === 1 && other.matches.length > 1 &&
      one.matches[0].posting.broad(this.span) && other.postings <= one.postings * 2
    ) {
      expanded.reverse();
    }
    const alive = this.alive;
    // Plain loops over locals: this is the hot path of every search. A job found by every word so
    // far is marked with the number of words that found it (at most MAX_TERMS), so a
    // later word needs no list of the jobs still in: a job is in when its mark is the round.
    let kept = 0;
    // A mask every job found must be in (a place) keeps the others out from the first word on.
    const mask = within ?? alive;
    const last = expanded.length === 2 && expanded[1].matches.length === 1
      ? expanded[1].matches[0]
      : null;
    if (expanded.length === 1 || last?.posting.broad(this.span)) {
      // One word, or two with the second broad and one posting (the first word's jobs are looked
      // up in it): no sums or rounds to set and clear. A first word of several postings keeps its
      // best score per job in `best` only until `takeBest` moves it beside the job, two passes
      // over its jobs where `settle`, the sums and the clearing took four (a broad word and its
      // forms, `product senior` at 100,000 jobs: 1.2 ms against 1.4-1.6).
      const { matches } = expanded[0];
      if (matches.length === 1) {
        const { posting, how } = matches[0];
        const where = fieldsFor(matches[0], fields);
        kept = markFirst(posting, how, where, alive, mask, first, scores, null);
      } else {
        for (const match of matches) {
          const { posting, how } = match;
          const where = fieldsFor(match, fields);
          kept = markWord(posting, how, where, 0, roundOf, alive, mask, best, first, kept);
        }
        takeBest(first, kept, best, scores);
      }
      let count = kept;
      if (last) {
        const fieldsOf = last.posting.byDoc(this.span);
        const where = fieldsFor(last, fields);
        count = keepHolders(first, kept, fieldsOf, last.how, where, null, first, scores);
      }
      matched.docs = first.subarray(0, count);
      matched.score = scores.subarray(0, count);
      return matched;
    }
    if (expanded[0].matches.length === 1) {
      const [match] = expanded[0].matches;
      const { posting, how } = match;
      const where = fieldsFor(match, fields);
      kept = markFirst(posting, how, where, alive, mask, first, scores, { sum, roundOf });
    } else {
      for (const match of expanded[0].matches) {
        const { posting, how } = match;
        const where = fieldsFor(match, fields);
        kept = markWord(posting, how, where, 0, roundOf, alive, mask, best, first, kept);
      }
      settle(first, kept, 1, best, sum, roundOf);
    }
    let survivors = first;
    let count = kept;
    let score: Uint16Array<ArrayBuffer> | null = null;
    for (let round = 1; round < expanded.length && count > 0; round++) {
      const { matches } = expanded[round];
      const held = survivors;
      survivors = next;
      // Only jobs the earlier words found (so live ones) are marked with the round.
      if (round === expanded.length - 1 && matches.length === 1) {
        const { posting, how } = matches[0];
        const where = fieldsFor(matches[0], fields);
        // A broad last word is looked up for each job still in, fewer than its own list.
        count = posting.broad(this.span) && posting.size > count
          ? keepHolders(held, count, posting.byDoc(this.span), how, where, sum, next, scores)
          : markLast(posting, how, where, round, roundOf, sum, next, scores);
        score = scores.subarray(0, count);
        break;
      }
      let found = 0;
      for (const match of matches) {
        const { posting, how } = match;
        const where = fieldsFor(match, fields);
        found = markWord(posting, how, where, round, roundOf, alive, alive, best, next, found);
      }
      settle(next, found, round + 1, best, sum, roundOf);
      count = found;
    }
    const docs = survivors.subarray(0, count);
    score ??= scoresOf(docs, sum, scores);
    // Every job a query marks was found by its first word.
    settle(first, kept, 0, best, sum, roundOf, true);
    // One answer object for every match, read before the next one as the arrays are.
    matched.docs = docs;
    matched.score = score;
    return matched;
  }

  /**
   * Points to the newest `window` live holders of each word (in the grant's field) but `except`,
   * summed per job: the jobs given any, in no order, with their points. Like `match`, the answer
   * lives in the index's reused arrays: read it before the next query.
   */
  credit(
    grants: { posting: Posting | undefined; field: number; points: number }[],
    window: number,
    except: number,
  ): { docs: Uint32Array; score: Uint16Array } {
    const { sum } = this.scratch();
    const { first, score } = this.work;
    const alive = this.alive;
    let count = 0;
    for (const { posting, field, points } of grants) {
      if (!posting) continue;
      const { docs, fields } = posting;
      let seen = 0;
      for (let i = posting.size - 1; i >= 0 && seen < window; i--) {
        const doc = docs[i];
        if (alive[doc] === 0 || (fields[i] & field) === 0 || doc === except) continue;
        seen++;
        if (sum[doc] === 0) first[count++] = doc;
        sum[doc] += points;
      }
    }
    for (let i = 0; i < count; i++) {
      score[i] = sum[first[i]];
      sum[first[i]] = 0;
    }
    return { docs: first.subarray(0, count), score: score.subarray(0, count) };
  }

  /** Per-job work arrays of `match`, as long as the index; all zero between queries. */
  private scratchArrays = {
    best: new Uint8Array(0),
    sum: new Uint16Array(0),
    round: new Uint8Array(0),
  };
  private work = {
    first: new Uint32Array(0),
    next: new Uint32Array(0),
    score: new Uint16Array(0),
  };
  private matched = { docs: new Uint32Array(0), score: new Uint16Array(0) };
  private found = {
    docs: new Uint32Array(0),
    scores: new Uint16Array(0),
    positions: new Uint32Array(0),
  };
  private places: Uint8Array[] = [];
  /**
   * Per role code, its words as written in order (`roleWords`), made when a search first asks:
   * as many as the distinct roles, like `roleNames`.
   */
  private roleWordLists: (RoleWord[] | undefined)[] = [];
  /** `favourPhrases`'s answer per role code for the search at hand: 0 until asked, zeroed after. */
  private phraseMarks = new Uint8Array(0);

  /**
   * Adds PHRASE_BONUS to the score of each job `found` (a match's answer) whose role says the
   * terms as a phrase: in their order, each in the word after the one before (stop words aside:
   * Head of Sales says `head sales`). `design engineer` finds a Mechanical Design Engineer and a
   * Design Verification Engineer alike; the first says it. Only words as written count: a term's
   * stem, the words typed and their joined form. Each role is read once a search, however many
   * of its jobs were found.
   */
  favourPhrases(terms: Term[], found: { docs: Uint32Array; score: Uint16Array }): void {
    const useful = terms.filter((term) => !isStopWord(term.word));
    if (useful.length < 2 || useful.some((term) => term.either || term.all)) return;
    // Words the vocabulary read as more words than were typed (`sde`: software engineer) were
    // typed as one: no phrase was asked for.
    const readAs = new Map<string, number>();
    for (const { typed } of useful) {
      if (!typed) continue;
      const key = typed.join(" ");
      const terms = (readAs.get(key) ?? 0) + 1;
      if (terms > typed.length) return;
      readAs.set(key, terms);
    }
    const reach = useful.map((term) =>
      new Set([term.word, ...term.typed ?? [], ...term.also ?? []])
    );
    if (this.phraseMarks.length < this.roleNames.length) {
      this.phraseMarks = new Uint8Array(this.roleNames.length * 2);
    }
    const { roleOf, phraseMarks: marks } = this;
    const { docs, score } = found;
    // A job scoring less has a term outside its role: its role is not read.
    const least = useful.length * FIELD_VALUE[FIELD.role];
    const asked: number[] = [];
    for (let i = 0; i < docs.length; i++) {
      if (score[i] < least) continue;
      const role = roleOf[docs[i]];
      let mark = marks[role];
      if (mark === 0) {
        mark = marks[role] = saysPhrase(this.roleWords(role), reach) ? 2 : 1;
        asked.push(role);
      }
      if (mark === 2) score[i] += PHRASE_BONUS;
    }
    for (const role of asked) marks[role] = 0;
  }

  /**
   * A role's words as written, in order, each the stems of the word and its parts and the stem of
   * it joined to the next (Front End: frontend); no stop words.
   */
  private roleWords(role: number): RoleWord[] {
    let words = this.roleWordLists[role];
    if (!words) {
      words = [];
      const whole = wholeWords(this.roleNames[role]).filter((word) => !isStopWord(word));
      whole.forEach((word, i) => {
        const parts: string[] = [];
        addWithParts(word, parts);
        const next = whole[i + 1];
        words!.push({
          stems: new Set(parts.filter((part) => !isStopWord(part)).map(stem)),
          joined: next === undefined ? "" : stem(word + next),
        });
      });
      this.roleWordLists[role] = words;
    }
    return words;
  }

  /**
   * Room for a search's matching jobs and their scores, as long as the index, reused by every
   * search: what a search returns from it is read before the next search starts.
   */
  foundArrays(): { docs: Uint32Array; scores: Uint16Array; positions: Uint32Array } {
    if (this.found.docs.length < this.span) {
      const size = Math.max(this.span, this.found.docs.length * 2);
      this.found = {
        docs: new Uint32Array(size),
        scores: new Uint16Array(size),
        positions: new Uint32Array(size),
      };
    }
    return this.found;
  }

  /** The per-job work arrays and the answer arrays, as long as the index (all zero between uses). */
  workArrays() {
    return { ...this.scratch(), ...this.work };
  }

  private scratch() {
    const span = this.span;
    if (this.scratchArrays.best.length < span) {
      const size = Math.max(span, this.scratchArrays.best.length * 2);
      this.scratchArrays = {
        best: new Uint8Array(size),
        sum: new Uint16Array(size),
        round: new Uint8Array(size),
      };
      this.work = {
        first: new Uint32Array(size),
        next: new Uint32Array(size),
        score: new Uint16Array(size),
      };
    }
    return this.scratchArrays;
  }

  /**
   * Marks the live jobs whose location (or `field`) holds a word of every group (prefixes of
   * unknown words).
   * The marks live in the index's reused array number `slot`: a search asking for several places
   * gives each its own slot, and reads them before the next search.
   */
  located(groups: string[][], slot = 0, field: number = FIELD.location): Uint8Array | null {
    if (groups.length === 0) return null;
    const hits = this.marks(slot);
    groups.forEach((names, g) => {
      for (const name of names) {
        const exact = this.postings.get(name);
        const postings = exact
          ? [exact]
          : name.length >= 3
          ? [...this.words.atPrefix(name).values()]
          : [];
        for (const posting of postings) markGroup(posting, field, hits, g);
      }
    });
    // With one group the marks are already 1 or 0.
    if (groups.length > 1) keepMarked(hits, groups.length);
    return hits;
  }

  /** Marks the live jobs of any of `categories` (their codes), in the reused array `slot`. */
  inCategories(categories: readonly number[], slot: number): Uint8Array {
    const hits = this.marks(slot);
    const wanted = new Uint8Array(256);
    for (const category of categories) wanted[category] = 1;
    const { traitOf, alive } = this;
    const categoryOf = TRAIT.category;
    for (let doc = 0; doc < hits.length; doc++) {
      hits[doc] = alive[doc] & wanted[categoryOf[traitOf[doc]]];
    }
    return hits;
  }

  /**
   * The live jobs the keyword box's filter words (a Senior role, an internship, IT jobs) let in,
   * by the words' `key`, kept until a job changes: a search with such a word then finds its jobs
   * from its first word on, as it does with a location, rather than testing each job its words
   * find (tens of thousands for a broad word). `sift` unmarks the jobs the words turn away from a
   * mask of the live jobs, when they have no mask yet. At most ADMITTED_MASKS are kept, a byte a
   * job each.
   */
  admitted(key: string, sift: (mask: Uint8Array) => void): Uint8Array {
    let mask = this.admittedBy.get(key);
    if (mask) this.admittedBy.delete(key);
    else {
      mask = this.alive.slice(0, this.span);
      sift(mask);
      if (this.admittedBy.size >= ADMITTED_MASKS) {
        this.admittedBy.delete(this.admittedBy.keys().next().value!);
      }
    }
    this.admittedBy.set(key, mask);
    return mask;
  }

  /** The reused array number `slot`, emptied, one entry a job number. */
  private marks(slot: number): Uint8Array {
    if ((this.places[slot]?.length ?? -1) < this.span) {
      this.places[slot] = new Uint8Array(Math.max(this.span, (this.places[slot]?.length ?? 0) * 2));
    }
    return this.places[slot].subarray(0, this.span).fill(0);
  }
}

/** A word of a role as `saysPhrase` reads it. */
interface RoleWord {
  /** The word's stem and its parts' (ASP.NET: asp.net, asp, net). */
  stems: Set<string>;
  /** The stem of the word and the next written as one; empty for the last. */
  joined: string;
}

/**
 * Whether `words` (a role's, `roleWords`) hold a word of each of `reach` (the terms' words) in turn,
 * each in the word after the last: a term in two words written as one (`frontend`: Front End)
 * takes both, and a term may be in the same word as the last when that word has parts (`asp net`:
 * ASP.NET).
 */
function saysPhrase(words: RoleWord[], reach: Set<string>[]): boolean {
  /** Where term `term` ends when it begins at `at`, into `ends`. */
  const endsFrom = (at: number, term: number, ends: number[]) => {
    if (at >= words.length) return;
    const { stems, joined } = words[at];
    for (const stem of stems) {
      if (reach[term].has(stem)) {
        if (!ends.includes(at)) ends.push(at);
        break;
      }
    }
    if (reach[term].has(joined) && !ends.includes(at + 1)) ends.push(at + 1);
  };
  let ends: number[] = [];
  for (let at = 0; at < words.length; at++) endsFrom(at, 0, ends);
  for (let term = 1; term < reach.length && ends.length > 0; term++) {
    const next: number[] = [];
    for (const end of ends) {
      if (words[end].stems.size > 1) endsFrom(end, term, next);
      endsFrom(end + 1, term, next);
    }
    ends = next;
  }
  return ends.length > 0;
}
