/** The sitemap index covers a board of any size; sitemaps and feeds are built once per revision. */
import assert from "node:assert/strict";
import { SITEMAP_URLS, sitemapFiles } from "../../routes/pages/seo.ts";
import { sampleJob, testApp } from "../helpers/server.ts";
import { seedJobs } from "./fixtures.ts";

Deno.test("100,002 URLs go into three sitemaps of at most 50,000, in order", () => {
  const urls = Array.from({ length: 100_002 }, (_, i) => ({ loc: `https://x.test/jobs/${i}` }));
  const files = sitemapFiles(urls);
  assert.deepEqual(files.map((file) => file.length), [50_000, 50_000, 2]);
  assert.equal(SITEMAP_URLS, 50_000);
  assert.deepEqual(files.flat(), urls);
});

Deno.test("the sitemaps and the RSS feed are built once per revision of the jobs", async () => {
  await using t = await testApp();
  await seedJobs(t, [{ role: "Data Analyst" }, { role: "Designer" }]);
  const catalog = await t.services.jobs.active();
  let listed = 0;
  const list = catalog.list.bind(catalog);
  catalog.list = (...args) => {
    listed++;
    return list(...args);
  };
  const read = async (path: string) => {
    const response = await t.app.request(path);
    assert.equal(response.status, 200, path);
    return await response.text();
  };
  for (const path of ["/sitemap.xml", "/sitemaps/1.xml", "/jobs/feed.xml"]) {
    const first = await read(path);
    const before = listed;
    for (let i = 0; i < 5; i++) assert.equal(await read(path), first);
    assert.equal(listed, before, `${path} was built again for the same jobs`);
  }
  const created = await t.services.jobs.create(sampleJob({ role: "Brand New" }));
  assert.ok(created.ok);
  assert.ok((await read("/sitemaps/1.xml")).includes(`/jobs/${created.job.jobId}<`));
  assert.ok((await read("/jobs/feed.xml")).includes("Brand New at"));
});

Deno.test("a search's feed lists the jobs with every word, never the partial matches a page offers", async () => {
  await using t = await testApp();
  await seedJobs(t, [{ role: "Python Developer" }, { role: "Java Developer" }]);
  const items = async (path: string) =>
    [...(await (await t.app.request(path)).text()).matchAll(/<item>\s*<title>([^<]*)</g)]
      .map((match) => match[1]);
  // No job says chef: the page shows the Python job as a partial match, the feed nothing.
  const page = await (await t.app.request("/jobs?keywords=python+chef")).text();
  assert.match(page, /No job has every word you searched for/);
  assert.deepEqual(await items("/jobs/feed.xml?keywords=python+chef"), []);
  assert.equal((await items("/jobs/feed.xml?keywords=python")).length, 1);
});
