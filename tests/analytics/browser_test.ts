/**
 * Counting and the admin portal's CSP in Chromium: an apply link embedded as an image elsewhere and
 * a prefetch count nothing, a real click counts once; no admin page makes the browser report a
 * Content-Security-Policy violation.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { asPerson, browserTest, launchBrowser } from "../helpers/browser.ts";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { openAs } from "../admin/helpers.ts";

/** Collects the CSP violations the page's documents report, and the console's CSP complaints. */
async function watchCsp(context: BrowserContext, page: Page): Promise<() => Promise<string[]>> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(globalThis, { cspViolations: seen });
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
    });
  });
  const console: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) console.push(message.text());
  });
  return async () => [
    ...console,
    ...await page.evaluate(() =>
      (globalThis as unknown as { cspViolations: string[] }).cspViolations
    ),
  ];
}

Deno.test({ name: "counting and the admin CSP in Chromium", ...browserTest }, async (t) => {
  await using s = await testServer();
  const created = await s.services.jobs.create(sampleJob({ role: "Embedded Engineer" }));
  if (!created.ok) throw new Error("job not created");
  const job = created.job;
  await using browser = await launchBrowser();
  const counts = async () => {
    await s.services.counter.flush();
    return (await s.services.jobs.analyticsOf([job._id])).get(job._id);
  };

  await t.step(
    "an <img> of the apply link and a prefetch on another site count nothing",
    async () => {
      // Another origin (another host name and port) that embeds the apply link and prefetches the job.
      const elsewhere = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen() {} },
        () =>
          new Response(
            `<!doctype html><title>Elsewhere</title>
        <link rel="prefetch" href="${s.url}/jobs/${job.jobId}">
        <img src="${s.url}/jobs/${job.jobId}/apply" alt="">
        <img src="${s.url}/jobs/${job.jobId}/apply?again" alt="">`,
            { headers: { "content-type": "text/html" } },
          ),
      );
      try {
        const context = await browser.newContext({ ...asPerson() });
        const page = await context.newPage();
        const loads: string[] = [];
        page.on("request", (request) => loads.push(`${request.resourceType()} ${request.url()}`));
        await page.goto(`http://localhost:${elsewhere.addr.port}/`);
        await page.waitForLoadState("networkidle");
        // The requests did reach the server, so the zeros below are not for lack of trying.
        assert.ok(
          loads.some((url) => url.includes("/apply")),
          loads.join("\n"),
        );
        assert.deepEqual(await counts(), { views: 0, clicks: 0 });
        await context.close();
      } finally {
        await elsewhere.shutdown();
      }
    },
  );

  await t.step("a real click of the apply link counts once", async () => {
    const context = await browser.newContext({
      ...asPerson(),
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(`${s.url}/jobs/${job.jobId}`);
    for (let i = 0; i < 2; i++) {
      const [popup] = await Promise.all([
        context.waitForEvent("page"),
        page.getByRole("link", { name: "Apply Now" }).first().click(),
      ]);
      await popup.waitForURL(job.hiringLink);
      await popup.close();
    }
    assert.deepEqual(await counts(), { views: 1, clicks: 1 });
    await context.close();
  });

  await t.step("no admin page reports a CSP violation", async () => {
    const main = await signIn(s, { main: true });
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const violations = await watchCsp(context, page);
    await page.goto(`${s.url}/admin/login`);
    await page.getByRole("button", { name: "Sign In" }).waitFor();
    assert.deepEqual(await violations(), [], "/admin/login");
    for (
      const path of ["/admin/dashboard", "/admin/analytics", "/admin/jobs", "/admin/jobs/create"]
    ) {
      await openAs(page, s, main, path);
      await page.waitForLoadState("networkidle");
      assert.deepEqual(await violations(), [], path);
    }
    await context.close();
  });
});
