/**
 * Islands wake when the visitor uses the page: a page only read fetches and runs no island, the
 * first move fetches their scripts and they hydrate when the browser is idle, a click that comes
 * before its island is awake still does what the awake island does, and a script that cannot load
 * leaves the page working as it does without JavaScript. Each island wakes in a task of its own, so
 * no one task holds a slow phone (tests/bench/wake.ts measures how long).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { asPerson, browserTest, islandsAwake, launchBrowser } from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { seedJobs } from "./fixtures.ts";

const awake = (page: Page) =>
  page.evaluate(() => document.querySelectorAll("[data-island][data-ready]").length);

Deno.test("islands wake when the visitor uses the page", browserTest, async (t) => {
  await using server = await testServer();
  const [job] = await seedJobs(server, [{ role: "Data Scientist" }]);
  await using browser = await launchBrowser();
  const context = await browser.newContext({ ...asPerson() });
  const page = await context.newPage();
  const jobPage = `${server.url}/jobs/${job.jobId}`;

  const fetched: string[] = [];
  page.on("request", (request) => fetched.push(new URL(request.url()).pathname));

  await t.step("a page that is only read fetches and runs no island", async () => {
    await page.goto(jobPage);
    // The page has loaded, the network has been quiet for half a second and the browser has been
    // idle: an island that woke without the visitor would have started by now.
    await page.waitForLoadState("networkidle");
    // The browser moves a resting mouse itself after a layout change, at no distance (Chromium did
    // so under load, and the islands woke): the pointer over the page, where it rests.
    await page.mouse.move(0, 0);
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    assert.equal(await awake(page), 0);
    assert.ok(!fetched.some((path) => path.startsWith("/assets/islands/")), fetched.join(" "));
  });

  await t.step("the visitor's first move fetches them, and they wake when idle", async () => {
    await page.mouse.move(10, 10);
    await islandsAwake(page);
    assert.ok(fetched.includes("/assets/islands/share.js"), fetched.join(" "));
    assert.ok(fetched.includes("/assets/islands/apply.js"), fetched.join(" "));
    page.removeAllListeners("request");
  });

  await t.step("each island wakes in a task of its own", async () => {
    // React's hydrateRoot starts by listening for events on the island's element. A microtask
    // runs only once the task at hand is over, so calls with no microtask between them are in one
    // task: each island is numbered with the task it was hydrated in.
    await page.addInitScript(() => {
      const state = { task: 0, open: false, hydratedIn: new Map<Element, number>() };
      const listen = EventTarget.prototype.addEventListener;
      EventTarget.prototype.addEventListener = function (
        this: EventTarget,
        ...args: Parameters<EventTarget["addEventListener"]>
      ) {
        if (this instanceof HTMLElement && this.dataset.island && !state.hydratedIn.has(this)) {
          if (!state.open) {
            state.open = true;
            state.task++;
            queueMicrotask(() => state.open = false);
          }
          state.hydratedIn.set(this, state.task);
        }
        return listen.apply(this, args);
      };
      Object.assign(globalThis, { wakeState: state });
    });
    await page.goto(jobPage);
    // A move is several events: the first in a new page reports no distance, as a resting mouse's.
    await page.mouse.move(20, 20, { steps: 2 });
    await islandsAwake(page);
    const readyAt = await page.evaluate(() => [
      ...(globalThis as unknown as { wakeState: { hydratedIn: Map<Element, number> } }).wakeState
        .hydratedIn.values(),
    ]);
    assert.equal(
      readyAt.length,
      8,
      "two Apply Now, two Share Job, the dialog, Back to Jobs, Save Job, the header's Saved",
    );
    assert.equal(new Set(readyAt).size, readyAt.length, `islands hydrated in one task: ${readyAt}`);
  });

  await t.step("a click before its island is awake opens the share dialog once it is", async () => {
    // The island's script arrives once the test lets it: the click comes first and is held.
    const arrive = Promise.withResolvers<void>();
    await page.route(/\/assets\/islands\/share\.js/, async (route) => {
      await arrive.promise;
      await route.continue();
    });
    await page.goto(jobPage, { waitUntil: "domcontentloaded" });
    await page.getByRole("button", { name: "Share Job" }).first().click();
    assert.equal(await awake(page), 0, "the click came before the island was awake");
    arrive.resolve();
    await page.getByRole("dialog", { name: "Share this job" }).waitFor();
    await page.unroute(/\/assets\/islands\/share\.js/);
  });

  await t.step("words typed before the search island is awake are kept and searched", async () => {
    const arrive = Promise.withResolvers<void>();
    await page.route(/\/assets\/islands\/hero-search\.js/, async (route) => {
      await arrive.promise;
      await route.continue();
    });
    await page.goto(server.url);
    const keywords = page.getByRole("textbox", { name: "Job title, keywords, or company" });
    await keywords.pressSequentially("data scientist");
    arrive.resolve();
    await page.waitForFunction(() =>
      document.querySelector('[data-island^="hero-search:"]')?.hasAttribute("data-ready")
    );
    assert.equal(await keywords.inputValue(), "data scientist");
    await page.getByRole("button", { name: "Search Jobs" }).click();
    await page.waitForURL(/\/jobs\?/);
    assert.equal(new URL(page.url()).searchParams.get("keywords"), "data scientist");
    await page.unroute(/\/assets\/islands\/hero-search\.js/);
  });

  await t.step(
    "when an island's script cannot load, Apply Now works as without JavaScript",
    async () => {
      await page.route(/\/assets\/islands\/apply\.js/, (route) => route.abort());
      await page.goto(jobPage);
      const [popup] = await Promise.all([
        context.waitForEvent("page"),
        page.getByRole("link", { name: "Apply Now" }).first().click(),
      ]);
      await popup.waitForURL(job.hiringLink);
      await popup.close();
      await page.unroute(/\/assets\/islands\/apply\.js/);
      await server.services.counter.flush();
      assert.equal((await server.services.jobs.analyticsOf([job._id])).get(job._id)?.clicks, 1);
    },
  );
});
