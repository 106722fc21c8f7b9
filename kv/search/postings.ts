/**
 * Compact storage for the search index: growable typed arrays of job numbers, and a posting list
 * (which jobs hold a word, and in which fields) that only ever appends, so a job change costs a few
 * appends, never a rewrite.
 */

/** A typed array of at least `size` entries holding `array`'s first `used` entries. */
export function grown<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array | Int32Array>(
  array: T,
  size: number,
  used = array.length,
): T {
  if (size <= array.length) return array;
  const bigger = new (array.constructor as new (size: number) => T)(
    Math.max(size, array.length * 2, 8),
  );
  bigger.set(array.subarray(0, used));
  return bigger;
}

/** The jobs (by number, ascending) holding one word, with a bit per field it is in. */
export class Posting {
  docs = new Uint32Array(2);
  fields = new Uint8Array(2);
  size = 0;
  /** `byDoc`'s answer, once asked for, kept up to date by `add`. */
  private fieldsByDoc: Uint8Array | null = null;

  add(doc: number, fields: number): void {
    if (this.size === this.docs.length) {
      this.docs = grown(this.docs, this.size + 1, this.size);
      this.fields = grown(this.fields, this.size + 1, this.size);
    }
    this.docs[this.size] = doc;
    this.fields[this.size++] = fields;
    if (this.fieldsByDoc) {
      this.fieldsByDoc = grown(this.fieldsByDoc, doc + 1);
      this.fieldsByDoc[doc] = fields;
    }
  }

  /**
   * Whether the word is held by at least a quarter of the `span` jobs numbered so far: a later word
   * of a search looks up its jobs in `byDoc` rather than reading its whole list. A byte a job costs
   * at most four for each of its entries (five bytes each already), for only such words, so the
   * data bounds it, not the searches (5.6 MB at most for the bench's 100,000 jobs, whose lists take
   * 51 MB; an eighth gave no faster searches for twice that).
   */
  broad(span: number): boolean {
    return this.size * 4 >= span;
  }

  /** The fields the word is in, by job number (0 for jobs without it), for a `broad` word. */
  byDoc(span: number): Uint8Array {
    if (!this.fieldsByDoc) {
      const byDoc = new Uint8Array(span);
      for (let i = 0; i < this.size; i++) byDoc[this.docs[i]] = this.fields[i];
      this.fieldsByDoc = byDoc;
    }
    // As long as the jobs numbered, so a lookup of any never reads past its end.
    this.fieldsByDoc = grown(this.fieldsByDoc, span);
    return this.fieldsByDoc;
  }

  /** The fields the job numbered `doc` holds the word in, 0 for none: a binary search. */
  fieldsAt(doc: number): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.docs[middle];
      if (at === doc) return this.fields[middle];
      if (at < doc) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }

  /** Keeps the jobs whose new number (`numbers[old]`) is not -1, renumbered; returns the size. */
  renumber(numbers: Int32Array): number {
    let kept = 0;
    for (let i = 0; i < this.size; i++) {
      const doc = numbers[this.docs[i]];
      if (doc < 0) continue;
      this.docs[kept] = doc;
      this.fields[kept++] = this.fields[i];
    }
    this.size = kept;
    this.docs = this.docs.slice(0, kept);
    this.fields = this.fields.slice(0, kept);
    this.fieldsByDoc = null;
    return kept;
  }
}

/** The jobs in both postings, in the fields both are in (or either, when none is shared). */
export function inBoth(a: Posting, b: Posting): Posting {
  const out = new Posting();
  for (let i = 0, j = 0; i < a.size && j < b.size;) {
    if (a.docs[i] < b.docs[j]) i++;
    else if (a.docs[i] > b.docs[j]) j++;
    else {
      const shared = a.fields[i] & b.fields[j];
      out.add(a.docs[i], shared || a.fields[i] | b.fields[j]);
      i++;
      j++;
    }
  }
  return out;
}

/** Non-negative whole numbers as LEB128 varints: seven bits a byte, small gaps in one byte. */
export class VarintWriter {
  private buffer = new Uint8Array(1024);
  private length = 0;

  write(value: number): void {
    if (this.length + 5 > this.buffer.length) {
      this.buffer = grown(this.buffer, this.length + 5, this.length);
    }
    while (value >= 0x80) {
      this.buffer[this.length++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.buffer[this.length++] = value;
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return this.buffer.slice(0, this.length);
  }
}

export class VarintReader {
  private at = 0;

  constructor(private buffer: Uint8Array) {}

  read(): number {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.buffer[this.at++];
      if (byte === undefined) throw new RangeError("A varint runs past the end of its bytes");
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  }
}
