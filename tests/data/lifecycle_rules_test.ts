import assert from "node:assert/strict";
import { lifecycleMove } from "../../kv/jobs/lifecycle.ts";
import {
  DAY_MS,
  DAYS_ACTIVE_BEFORE_DUMP,
  DAYS_IN_DUMP_BEFORE_INACTIVE,
} from "../../kv/constants.ts";
import type { Job } from "../../kv/schemas.ts";
import { sampleJob } from "../helpers/server.ts";

const now = new Date("2026-06-30T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const ACTIVE = DAYS_ACTIVE_BEFORE_DUMP * DAY_MS;
const IN_DUMP = DAYS_IN_DUMP_BEFORE_INACTIVE * DAY_MS;

function job(status: Job["status"], datePosted: string, movedToDumpAt: string | null): Job {
  return {
    ...sampleJob(),
    _id: "job-1",
    jobId: "JB-1",
    status,
    datePosted,
    movedToDumpAt,
    createdAt: datePosted,
    updatedAt: datePosted,
  };
}

Deno.test(`an active job moves to dump at exactly ${DAYS_ACTIVE_BEFORE_DUMP} days, stamped with the move, not a moment before`, () => {
  assert.equal(lifecycleMove(job("active", ago(ACTIVE - 1), null), now), null);
  const moved = lifecycleMove(job("active", ago(ACTIVE), null), now);
  assert.equal(moved?.status, "dump");
  assert.equal(moved?.movedToDumpAt, now.toISOString());
  assert.equal(moved?.updatedAt, now.toISOString());
  assert.equal(moved?.datePosted, ago(ACTIVE));
});

Deno.test(`a job in dump moves to inactive at exactly ${DAYS_IN_DUMP_BEFORE_INACTIVE} days in dump, whenever it was posted`, () => {
  const posted = ago(ACTIVE + IN_DUMP + 60 * DAY_MS);
  assert.equal(lifecycleMove(job("dump", posted, ago(IN_DUMP - 1)), now), null);
  const moved = lifecycleMove(job("dump", posted, ago(IN_DUMP)), now);
  assert.equal(moved?.status, "inactive");
  assert.equal(moved?.movedToDumpAt, ago(IN_DUMP));
});

Deno.test("an inactive job never moves, and a dump job's posting date does not count", () => {
  const long = ACTIVE + IN_DUMP + 300 * DAY_MS;
  assert.equal(lifecycleMove(job("inactive", ago(long + ACTIVE), ago(long)), now), null);
  assert.equal(lifecycleMove(job("dump", ago(long), ago(DAY_MS)), now), null);
});
