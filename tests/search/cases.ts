/**
 * A relevance case: what a job seeker types, the jobs it must find (all of them, or exactly
 * these), the one it must rank first, and the jobs it must not find; and the runner of a suite.
 */
import assert from "node:assert/strict";
import type { ActiveCatalog, PublicSearchQuery } from "../../kv/jobs/catalogue.ts";

export interface Case {
  query: Omit<PublicSearchQuery, "page" | "limit">;
  /** The jobs that must be found; with `exactly`, the only ones. */
  finds: string[];
  exactly?: boolean;
  first?: string;
  not?: string[];
}

/** One test per case, over `catalog`. */
export function relevanceSuite(catalog: ActiveCatalog, cases: Record<string, Case>): void {
  for (const [name, test] of Object.entries(cases)) {
    Deno.test(`relevance: ${name}`, () => {
      const { jobs, pagination } = catalog.page({ page: 1, limit: 100, ...test.query });
      const ids = jobs.map((job) => job._id);
      if (test.exactly) assert.deepEqual([...ids].sort(), [...test.finds].sort());
      else for (const id of test.finds) assert.ok(ids.includes(id), `${id} is found: ${ids}`);
      assert.equal(pagination.totalJobs, ids.length);
      if (test.first) assert.equal(ids[0], test.first);
      for (const id of test.not ?? []) assert.ok(!ids.includes(id), `${id} is not found: ${ids}`);
    });
  }
}
