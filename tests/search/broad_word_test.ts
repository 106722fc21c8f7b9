/**
 * A broad word (held by at least a quarter of the jobs) is looked up by job number when it is a
 * search's last word, rather than read through its list: both ways must find the same jobs with the
 * same scores, before and after jobs are added, removed and the index compacted.
 */
import assert from "node:assert/strict";
import { SearchIndex } from "../../kv/search/index.ts";
import { indexedJob } from "../../kv/jobs/catalogue.ts";
import { generateJob, seededRandom } from "../../kv/demo/generate.ts";
import { parseKeywords } from "../../kv/search/query.ts";
import { FIELD, type IndexedDoc } from "../../kv/search/fields.ts";
import type { Job } from "../../kv/schemas.ts";

const KEYWORD_FIELDS = FIELD.role | FIELD.skills | FIELD.company | FIELD.description |
  FIELD.location;
const SEARCHES = [
  "python engineer",
  "react developer",
  "data learning",
  "cloud engineer",
  "sales manager",
  "python data engineer",
  "java developer",
  "machine learning",
  // A broad word of one posting and a word of several ("data": data, database) swap places.
  "python data",
  "develop data",
];

const jobs = (from: number, count: number, seed: number): IndexedDoc[] => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const datePosted = new Date(Date.UTC(2026, 2, 1) + (from + i) * 3_600_000);
    const job = generateJob(random, from + i, {
      status: "active",
      datePosted,
      movedToDumpAt: null,
    });
    return indexedJob({ ...job, jobId: `JB-${1000 + from + i}` } as Job);
  });
};

/** A job whose words no search here asks for, so it adds to the jobs numbered and to no word's list. */
const filler = (n: number): IndexedDoc => ({
  id: `filler-${n}`,
  posted: 0,
  role: "Zyxw",
  companyName: "Qvqv",
  location: "Xyzzy",
});

/** Each search's jobs, by id, with their scores. */
function answers(index: SearchIndex): Map<string, string> {
  return new Map(SEARCHES.map((words) => {
    const matched = index.match(parseKeywords(words).terms, KEYWORD_FIELDS);
    const found = matched
      ? Array.from(matched.docs, (doc, i) => `${index.ids[doc]}:${matched.score[i]}`).sort()
      : [];
    return [words, found.join(" ")];
  }));
}

Deno.test("a broad last word looked up by job number finds and scores as its list does, through every change", () => {
  const first = jobs(0, 600, 3);
  // The same jobs in both indexes; the second also numbers many removed fillers, so that no word
  // there is held by a quarter of the jobs numbered and every word is read through its list.
  const lookedUp = new SearchIndex();
  const listed = new SearchIndex();
  for (const job of first) lookedUp.put(job);
  first.forEach((job, i) => {
    listed.put(job);
    for (let n = 0; n < 10; n++) listed.put(filler(i * 10 + n));
    for (let n = 0; n < 10; n++) listed.remove(`filler-${i * 10 + n}`);
  });
  const broad = (index: SearchIndex, word: string) =>
    index.termMatches(parseKeywords(word).terms[0]).some(({ posting }) =>
      posting.broad(index.span)
    );
  assert.ok(broad(lookedUp, "engineer") && broad(lookedUp, "developer"));
  assert.ok(!broad(listed, "engineer") && !broad(listed, "developer"));

  const before = answers(listed);
  assert.deepEqual(answers(lookedUp), before);
  assert.ok([...before.values()].filter((found) => found.length > 0).length >= 6);

  // Jobs added after the words were looked up once, some replaced, some removed.
  const later = jobs(600, 200, 4);
  for (const index of [lookedUp, listed]) {
    for (const job of later) index.put(job);
    for (const job of first.slice(0, 100)) index.put({ ...job, role: `${job.role} Engineer` });
    for (const job of first.slice(100, 250)) index.remove(job.id);
  }
  const changed = answers(listed);
  assert.notDeepEqual(changed, before);
  assert.deepEqual(answers(lookedUp), changed);

  // A compaction renumbers every job.
  lookedUp.compact();
  listed.compact();
  assert.deepEqual(answers(lookedUp), changed);
  assert.deepEqual(answers(listed), changed);
});
