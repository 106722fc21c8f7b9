/**
 * The search index as plain arrays, for the catalogue's snapshot (kv/jobs/snapshot.ts): the live
 * jobs numbered afresh, and each word's posting list as one run of varint gaps between job numbers
 * (mostly one byte each) and one of field bits, so a large index packs into a few megabytes. An
 * index read back answers every query as the one written.
 */
import { COLUMN_NAMES, type Columns, renumberedCopy, SearchIndex } from "./index.ts";
import { FIELD } from "./fields.ts";
import { Posting, VarintReader, VarintWriter } from "./postings.ts";
import { companyKey } from "./codes.ts";

/** Posting entries exported between two pauses (a few milliseconds of work). */
const EXPORT_STRIDE = 200_000;

export interface IndexState {
  ids: string[];
  /** The index's per-job columns (`COLUMNS`), the live jobs' entries only. */
  columns: Columns;
  roleNames: string[];
  companyNames: string[];
  /** Each word, the number of jobs holding it, their gaps (varints) and their field bits. */
  words: string[];
  sizes: Uint32Array<ArrayBuffer>;
  gaps: Uint8Array<ArrayBuffer>;
  fields: Uint8Array<ArrayBuffer>;
}

/**
 * The index's live jobs as plain arrays. `pause` is awaited now and then; the caller keeps the
 * index unchanged until this resolves.
 */
export async function exportIndex(
  index: SearchIndex,
  pause: () => Promise<void> = () => Promise.resolve(),
): Promise<IndexState> {
  const span = index.span;
  const renumbered = new Int32Array(span).fill(-1);
  const ids: string[] = [];
  for (let doc = 0; doc < span; doc++) {
    if (index.alive[doc]) renumbered[doc] = ids.push(index.ids[doc]) - 1;
  }
  const words: string[] = [];
  const sizes: number[] = [];
  const gaps = new VarintWriter();
  const fields: number[] = [];
  let sincePause = 0;
  for (const [word, posting] of index.postings) {
    // A large index takes a while: requests are answered meanwhile.
    if ((sincePause += posting.size) > EXPORT_STRIDE) {
      sincePause = 0;
      await pause();
    }
    let previous = -1;
    let size = 0;
    for (let i = 0; i < posting.size; i++) {
      const doc = renumbered[posting.docs[i]];
      if (doc < 0) continue;
      gaps.write(doc - previous - 1);
      fields.push(posting.fields[i]);
      previous = doc;
      size++;
    }
    if (size === 0) continue;
    words.push(word);
    sizes.push(size);
  }
  return {
    ids,
    columns: Object.fromEntries(
      COLUMN_NAMES.map((name) => [name, renumberedCopy(index[name], renumbered, ids.length)]),
    ) as Columns,
    roleNames: [...index.roleNames],
    companyNames: [...index.companyNames],
    words,
    sizes: Uint32Array.from(sizes),
    gaps: gaps.bytes(),
    fields: Uint8Array.from(fields),
  };
}

/** The index a snapshot's state describes (see `exportIndex`). */
export function indexFromState(state: IndexState): SearchIndex {
  const index = new SearchIndex();
  const count = state.ids.length;
  index.ids = state.ids;
  index.alive = new Uint8Array(count).fill(1);
  // Copies: a deserialised state's arrays are views on the one buffer of the whole payload, which
  // keeping any of them would keep (48 MB at 100,000 jobs).
  for (const name of COLUMN_NAMES) index.setColumn(name, state.columns[name].slice());
  state.companyNames.forEach((name, code) => {
    index.companyNames.push(name);
    index.companyCode.set(companyKey(name), code);
  });
  state.ids.forEach((id, doc) => index.numberOf.set(id, doc));
  state.roleNames.forEach((role, code) => {
    index.roleNames.push(role);
    index.roleCode.set(role, code);
    index.roleDocs.push(new Posting());
  });
  for (let doc = 0; doc < count; doc++) index.roleDocs[index.roleOf[doc]].add(doc, FIELD.role);
  const gaps = new VarintReader(state.gaps);
  let at = 0;
  state.words.forEach((word, w) => {
    const size = state.sizes[w];
    const posting = new Posting();
    posting.docs = new Uint32Array(size);
    posting.fields = state.fields.slice(at, at + size);
    let doc = -1;
    for (let i = 0; i < size; i++) posting.docs[i] = doc += gaps.read() + 1;
    posting.size = size;
    at += size;
    index.adopt(word, posting);
  });
  return index;
}
