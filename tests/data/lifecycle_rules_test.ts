import assert from "node:assert/strict";
import { lifecycleMove } from "../../kv/jobs/lifecycle.ts";
import { DAY_MS } from "../../kv/constants.ts";
import type { Job } from "../../kv/schemas.ts";
import { sampleJob } from "../helpers/server.ts";

const now = new Date("2026-06-30T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

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

Deno.test("an active job moves to dump at exactly 7 days, stamped with the move, not a moment before", () => {
  assert.equal(lifecycleMove(job("active", ago(7 * DAY_MS - 1), null), now), null);
  const moved = lifecycleMove(job("active", ago(7 * DAY_MS), null), now);
  assert.equal(moved?.status, "dump");
  assert.equal(moved?.movedToDumpAt, now.toISOString());
  assert.equal(moved?.updatedAt, now.toISOString());
  assert.equal(moved?.datePosted, ago(7 * DAY_MS));
});

Deno.test("a job in dump moves to inactive at exactly 30 days in dump, whenever it was posted", () => {
  const posted = ago(90 * DAY_MS);
  assert.equal(lifecycleMove(job("dump", posted, ago(30 * DAY_MS - 1)), now), null);
  const moved = lifecycleMove(job("dump", posted, ago(30 * DAY_MS)), now);
  assert.equal(moved?.status, "inactive");
  assert.equal(moved?.movedToDumpAt, ago(30 * DAY_MS));
});

Deno.test("an inactive job never moves, and a dump job's posting date does not count", () => {
  assert.equal(lifecycleMove(job("inactive", ago(400 * DAY_MS), ago(300 * DAY_MS)), now), null);
  assert.equal(lifecycleMove(job("dump", ago(400 * DAY_MS), ago(DAY_MS)), now), null);
});
