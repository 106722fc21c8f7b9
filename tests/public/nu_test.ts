/**
 * Every public page, with the longest texts the schema allows, is valid HTML to the W3C Nu checker:
 * the home, the list and its pages, searches and filters, a page past the end, a job page and a job
 * that does not exist, the saved jobs, and the job alert pages a mail's links open.
 */
import assert from "node:assert/strict";
import { testServer } from "../helpers/server.ts";
import { LONGEST_JOB, longestPaths, seedJobs } from "./fixtures.ts";
import { nuErrors } from "./nu.ts";

Deno.test("the Nu HTML checker finds no error on any public page", async () => {
  await using server = await testServer();
  const seeded = await seedJobs(server, [
    ...Array.from({ length: 13 }, (_, i) => ({ role: `Backend Engineer ${i}` })),
    LONGEST_JOB,
  ]);
  const alert = await server.services.alerts.request({
    email: `${"a".repeat(64)}@example.com`,
    query: { keywords: "K".repeat(200), location: "L".repeat(200) },
    frequency: "weekly",
  });
  const alertPages = [
    `/alerts/confirm?token=${alert!.confirm}`,
    `/alerts/unsubscribe?token=${alert!.links.unsubscribe}`,
    `/alerts/manage?token=${alert!.links.manage}`,
    "/alerts/manage?token=gone",
  ];
  const pages = [];
  for (
    const path of [
      ...longestPaths(seeded.at(-1)!.jobId),
      "/jobs?page=99999",
      "/saved",
      ...alertPages,
    ]
  ) {
    // A page past the end is a redirect: the page checked is where it leads.
    const response = await fetch(server.url + path);
    pages.push({ name: path.slice(0, 60), html: await response.text() });
  }
  assert.deepEqual(await nuErrors(pages), []);
});
