/**
 * What the search index is made of: the field bits of a posting and their ranks, how a word was
 * reached, and the shapes of what it indexes and is asked.
 */
import type { Posting } from "./postings.ts";
import type { FilterValues } from "../job-fields.ts";

/** Field bits of a posting. */
export const FIELD = {
  role: 1,
  skills: 2,
  company: 4,
  description: 8,
  location: 16,
  jobId: 32,
  /**
   * Beside `role`: the role has the word as written (two words written as one count: Full Stack
   * has fullstack), not only as the vocabulary's form of another word of it (a Tutor's role holds
   * teacher so).
   */
  roleAsWritten: 64,
} as const;

/**
 * What a match is worth by the best field it is in, before how it was reached (`HOW`) is added:
 * the role above skills and keywords, above the company, above the description and location (a job
 * ID is as good as a role). A role that has the word only as the vocabulary's form of another is a
 * little below one that says it, by as much as a longer form of the word is: `teacher` ranks a
 * Teacher above a Tutor, `it support` an IT Support Engineer above a Customer Service Officer.
 */
export const FIELD_VALUE = new Uint8Array(128).map((_, fields) =>
  fields & FIELD.jobId || (fields & FIELD.role && fields & FIELD.roleAsWritten)
    ? 16
    : fields & FIELD.role
    ? 15
    : fields & FIELD.skills
    ? 12
    : fields & FIELD.company
    ? 8
    : fields & (FIELD.description | FIELD.location)
    ? 4
    : 0
);

/** How a word was reached: the word itself, a longer form of it, a prefix, a typo. */
export const HOW = { exact: 3, inflection: 2, prefix: 1, typo: 0 } as const;
/**
 * What a role saying a query's words as a phrase adds (`SearchIndex.favourPhrases`): it ranks above
 * a role with the words apart even when one of its words is a longer form (Sales Executives above
 * an Executive - Inside Sales for `sales executive`).
 */
export const PHRASE_BONUS = HOW.exact - HOW.inflection + 1;
/** The most one query word adds to a job's score: the word itself, in the role. */
export const BEST_WORD_SCORE = FIELD_VALUE[FIELD.role | FIELD.roleAsWritten] + HOW.exact;

/** What the index takes from a job (or from an admin list entry). */
export interface IndexedDoc extends FilterValues {
  id: string;
  posted: number;
  role: string;
  companyName: string;
  location: string;
  skills?: string[];
  description?: string;
  jobId?: string;
  /** The top of the pay range made yearly, in rupees; 0 or absent without pay. */
  payTop?: number;
}

/** A word of a query and the other words that stand for it. */
export interface Term {
  /** The word's stem. */
  word: string;
  /** The word as typed, looked up when its stem finds nothing (a typo the stem hides). */
  raw?: string;
  /**
   * The stems of the words typed, when the vocabulary read them as others, this among them
   * (`golang`: go, `tutor`: teacher, `customer care`: customer support): a role saying them as
   * typed ranks above one only meaning them.
   */
  typed?: readonly string[];
  /** Words that also stand for it, as well: two typed words written as one (dev ops: devops). */
  also?: string[];
  /** Words that stand for it as weaker matches, when no job has every term (engineer: develop). */
  weaker?: string[];
  /** A word many jobs share (developer): when no job has every term, it counts half. */
  generic?: boolean;
  /**
   * A word the vocabulary knows (a skill, a role, a job word): it is never read as a typo of
   * another word (`teacher` is not `tech`).
   */
  known?: boolean;
  /**
   * The stems of the vocabulary phrase of several words the term is a word of (`back office`),
   * shared by that phrase's terms: when no job has every term, the phrase counts as one.
   */
  phrase?: readonly string[];
  /** A phrase counted as one: the jobs holding every one of these stems. */
  all?: readonly string[];
  /** Words typed with `or` between them (`python or java`): a job holding any of them has it. */
  either?: Term[];
  /**
   * A role word standing for the one typed (engineer for developer): found in a role only, and
   * scoring as a typo of the word typed would.
   */
  standsIn?: boolean;
}

/** One way a query word is found: a posting list, how well, and the word it stands for. */
export interface WordMatch {
  posting: Posting;
  how: number;
  word: string;
  /**
   * Found through the vocabulary's reading of the word typed (`tutor`: teacher): a role it is in
   * counts as not saying it as written, whatever word of the role it stands for.
   */
  unwritten?: boolean;
  /** Counted in a role only: a role word standing for another (engineer for developer). */
  roleOnly?: boolean;
}

/**
 * The fields a match is read in: a match `unwritten` never counts a role as saying it, one
 * `roleOnly` counts in a role only.
 */
export const fieldsFor = (match: WordMatch, fields: number): number =>
  (match.unwritten ? fields & ~FIELD.roleAsWritten : fields) &
  (match.roleOnly ? FIELD.role | FIELD.roleAsWritten : ~0);
