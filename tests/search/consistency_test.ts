/**
 * The search's shortcuts answer as the plain definitions would, over a few thousand generated jobs
 * and many random searches: a page equals the same place in the whole ranked list, a dropdown
 * option's count is the total of the search with that option chosen, and no option giving jobs is
 * missing.
 */
import assert from "node:assert/strict";
import { SearchIndex } from "../../kv/search/index.ts";
import { type JobSearch, searchJobs } from "../../kv/search/search.ts";
import { indexedJob } from "../../kv/jobs/catalogue.ts";
import { generateJob, seededRandom } from "../../kv/demo/generate.ts";
import { EMPLOYMENT_TYPES, EXPERIENCE_OPTIONS, type Job } from "../../kv/schemas.ts";
import { POSTED_WITHIN, ROLE_CATEGORIES, SALARY_BANDS, WORK_MODES } from "../../kv/job-fields.ts";
import { LAKH } from "../../kv/search/codes.ts";
import { DAY_MS } from "../../kv/constants.ts";

const WORDS = [
  "engineer",
  "developer",
  "data",
  "python",
  "react",
  "senior",
  "learning",
  "cloud",
  "sales",
  "qa",
  "pyhton",
  "eng",
  "remote",
  "full time",
  "intern",
  "fresher",
  "contract",
  "",
];
const PLACES = ["", "bangalore", "mumbai", "delhi ncr", "pune", "remote"];

const START = Date.parse("2026-03-01T00:00:00Z");
const HOUR_MS = 3_600_000;
/** The searches' clock: the last of 3,000 jobs posted an hour before. */
const NOW = START + 1_001 * HOUR_MS;

function generatedIndex(count: number): SearchIndex {
  const random = seededRandom(11);
  const start = START;
  const index = new SearchIndex();
  for (let i = 0; i < count; i++) {
    // Some jobs share a posting time, so the newest-first tie-break by id is exercised; they span
    // 42 days, so every Date posted window holds some.
    const datePosted = new Date(start + Math.floor(i / 3) * HOUR_MS);
    const job = generateJob(random, i, { status: "active", datePosted, movedToDumpAt: null });
    index.put(indexedJob({ ...job, jobId: `JB-${1000 + i}` } as Job));
  }
  // Replaced and removed jobs stay behind as dead entries the search must skip.
  for (let i = 0; i < count; i += 17) index.remove(index.ids[i]);
  return index;
}

Deno.test("a page, the total and every count agree with the whole ranked list and the filtered totals", () => {
  const index = generatedIndex(3_000);
  const random = seededRandom(5);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const total = (search: JobSearch) => searchJobs(index, { ...search, offset: 0, limit: 0 }).total;
  let checked = 0;
  for (let round = 0; round < 150; round++) {
    const search: JobSearch = {
      keywords: `${pick(WORDS)} ${pick(WORDS)}`.trim() || undefined,
      location: pick(PLACES) || undefined,
      employmentType: random() < 0.25 ? pick(EMPLOYMENT_TYPES) : undefined,
      experience: random() < 0.2 ? pick(EXPERIENCE_OPTIONS) : undefined,
      workMode: random() < 0.15 ? pick(WORK_MODES) : undefined,
      category: random() < 0.15 ? pick(ROLE_CATEGORIES) : undefined,
      payMin: random() < 0.15 ? pick(SALARY_BANDS) * LAKH : undefined,
      postedWithin: random() < 0.15 ? pick(POSTED_WITHIN) : undefined,
      now: NOW,
      order: pick(["relevance", "newest", "oldest"] as const),
      offset: 0,
      limit: 0,
    };
    const whole = searchJobs(index, { ...search, limit: 100_000 });
    const wholeIds = whole.ids;
    const limit = 1 + Math.floor(random() * 12);
    const offset = Math.floor(random() * Math.min(wholeIds.length + 2, 40));
    const page = searchJobs(index, { ...search, offset, limit });
    const label = JSON.stringify({ ...search, offset, limit });
    assert.equal(page.total, wholeIds.length, label);
    assert.deepEqual(page.ids, wholeIds.slice(offset, offset + limit), label);
    for (const [value, jobs] of page.facets.employmentTypes) {
      assert.equal(jobs, total({ ...search, employmentType: value }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.experience) {
      assert.equal(jobs, total({ ...search, experience: value }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.roles.slice(0, 5)) {
      assert.equal(jobs, total({ ...search, role: value }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.workModes) {
      assert.equal(jobs, total({ ...search, workMode: value }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.categories) {
      assert.equal(jobs, total({ ...search, category: value }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.salaries) {
      assert.equal(jobs, total({ ...search, payMin: Number(value) }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.posted) {
      assert.equal(jobs, total({ ...search, postedWithin: Number(value) }), `${label} ${value}`);
    }
    for (const [value, jobs] of page.facets.companies.slice(0, 5)) {
      assert.equal(jobs, total({ ...search, company: value }), `${label} ${value}`);
    }
    const offered = new Set(page.facets.employmentTypes.map(([value]) => value));
    for (const value of EMPLOYMENT_TYPES) {
      if (!offered.has(value)) assert.equal(total({ ...search, employmentType: value }), 0, label);
    }
    if (page.total > limit) checked++;
  }
  assert.ok(checked > 50, `${checked} searches had more than a page`);
});

Deno.test("a place narrows the words' jobs and no more: words and a place find the jobs of both", () => {
  const index = generatedIndex(3_000);
  const all = (search: Partial<JobSearch>) =>
    new Set(
      searchJobs(index, { order: "newest", offset: 0, limit: 100_000, now: NOW, ...search }).ids,
    );
  const single = WORDS.filter((word) => word && !word.includes(" "));
  let narrowed = 0;
  for (const place of PLACES.filter(Boolean)) {
    const inPlace = all({ location: place });
    // A place word in the keyword box ("remote") narrows as the location does.
    const inPlaceWord = place === "remote" ? all({ keywords: "remote" }) : null;
    for (const word of single) {
      const withWord = all({ keywords: word });
      const both = [...withWord].filter((id) => inPlace.has(id)).sort();
      assert.deepEqual(
        [...all({ keywords: word, location: place })].sort(),
        both,
        `${word} in ${place}`,
      );
      if (inPlaceWord) {
        const wordAndPlace = [...withWord].filter((id) => inPlaceWord.has(id)).sort();
        assert.deepEqual([...all({ keywords: `${word} remote` })].sort(), wordAndPlace, word);
      }
      if (both.length > 0 && both.length < withWord.size) narrowed++;
    }
  }
  assert.ok(narrowed > 20, `${narrowed} searches were narrowed by their place`);
});

/** Role words that stand for one another in a role beside another word (kv/search/search.ts). */
const ROLE_WORDS = /\b(develop|engineer|programm)/i;

Deno.test("the jobs of several words are the jobs each of the words finds alone, and a role word's others in the role", () => {
  const index = generatedIndex(3_000);
  const random = seededRandom(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const found = (keywords: string) => {
    const answer = searchJobs(index, { keywords, order: "newest", offset: 0, limit: 100_000 });
    return { ids: new Set(answer.ids), partial: answer.partial };
  };
  const single = WORDS.filter((word) => word && !word.includes(" "));
  let checked = 0;
  for (let round = 0; round < 120; round++) {
    const words = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(single));
    const all = found(words.join(" "));
    if (all.partial) continue;
    const each = words.map((word) => found(word).ids);
    const expected = [...each[0]].filter((id) => each.every((ids) => ids.has(id))).sort();
    // Beside other words, one role word (developer) also finds roles saying another (engineer),
    // with every other word in the role too.
    const others = words.filter((word) => !ROLE_WORDS.test(word));
    const roleOf = (id: string) => index.roleNames[index.roleOf[index.numberOf.get(id)!]];
    const extra = [...all.ids].filter((id) => !expected.includes(id));
    for (const id of extra) {
      assert.ok(
        words.length - others.length === 1 && expected.length > 0 && ROLE_WORDS.test(roleOf(id)) &&
          others.every((word) => found(word).ids.has(id)),
        `${words.join(" ")} found ${roleOf(id)}`,
      );
    }
    assert.deepEqual([...all.ids].filter((id) => expected.includes(id)).sort(), expected);
    if (expected.length > 0) checked++;
  }
  assert.ok(checked > 40, `${checked} searches found jobs`);
});

Deno.test("the Date posted windows follow the clock to the millisecond, forwards and back, and every change of the jobs", () => {
  const index = generatedIndex(600);
  const random = seededRandom(3);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const live = () => [...index.liveDocs()];
  const check = (now: number, label: string) => {
    const answer = searchJobs(index, { order: "newest", offset: 0, limit: 40, now });
    const times = live().map((doc) => index.posted[doc]);
    const expected = POSTED_WITHIN.map((days) => {
      const jobs = times.filter((time) => time >= now - days * DAY_MS).length;
      return [String(days), jobs] as [string, number];
    });
    assert.deepEqual(answer.facets.posted, expected, label);
    // The newest page ranks by the windows too (only jobs in windows that can fill it).
    const newest = live().sort((a, b) =>
      index.posted[b] - index.posted[a] || (index.ids[b] > index.ids[a] ? 1 : -1)
    );
    assert.deepEqual(answer.ids, newest.slice(0, 40).map((doc) => index.ids[doc]), label);
    return expected;
  };
  // Each clock at, just before and just after the moment a job leaves a window, in no order.
  const edges = Array.from({ length: 40 }, () => {
    const time = index.posted[pick(live())];
    return time + pick(POSTED_WITHIN) * DAY_MS + pick([-1, 0, 1]);
  });
  const seen = new Set<string>();
  for (const now of edges) seen.add(JSON.stringify(check(now, `at ${now - NOW}`)));
  assert.ok(seen.size > 20, `${seen.size} different counts`);
  // A job put in moves the counts at a clock asked before; so does one edited, even when the
  // index, compacted, is as long as before.
  index.compact();
  const now = edges[0];
  const before = check(now, "before the changes");
  const job = generateJob(random, 9_999, {
    status: "active",
    datePosted: new Date(now - 2 * DAY_MS),
    movedToDumpAt: null,
  });
  index.put(indexedJob({ ...job, jobId: "JB-99999" } as Job));
  const added = check(now, "a job put in two days before");
  const moved = (counts: [string, number][], by: number) =>
    counts.map(([days, jobs]) => [days, jobs + (Number(days) >= 3 ? by : 0)]);
  assert.deepEqual(added, moved(before, 1));
  const datePosted = new Date(now - 40 * DAY_MS).toISOString();
  index.put(indexedJob({ ...job, datePosted, jobId: "JB-99999" }));
  index.compact();
  assert.deepEqual(check(now, "the job edited to 40 days before"), before);
});
