/** What a recruiter reads on the way: field errors in plain words, wide tables that say they scroll. */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser } from "../helpers/browser.ts";
import {
  createJob,
  expectAccessible,
  expectHeading,
  expectText,
  expectToast,
  newPage,
  openAs,
  press,
} from "./helpers.ts";

Deno.test({ name: "plain words and narrow screens", ...browserTest }, async (t) => {
  await using s = await testServer();
  const main = await signIn(s, { main: true });
  const job = await createJob(s, main, sampleJob({ role: "Viewed Role" }));
  const visitor = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" };
  await (await s.app.request(`/api/jobs/${job._id}`, { headers: visitor })).body?.cancel();
  await s.services.counter.flush();
  await using browser = await launchBrowser();

  for (const width of [1366, 390]) {
    await t.step(`${width} px: a bad link is explained in plain words`, async () => {
      const { context, page } = await newPage(browser, width);
      await openAs(page, s, main, "/admin/jobs/create");
      await page.getByLabel("Company Name").fill("Umbrella");
      await page.getByRole("textbox", { name: "Role", exact: true }).fill("Platform Engineer");
      await page.getByLabel("Location").fill("Hyderabad");
      await page.getByLabel("Experience").selectOption("3+");
      await page.getByLabel("Hiring Link").fill("careers.umbrella.example/jobs/1");
      await page.getByLabel("Job Description").fill("Run the platform.");
      await page.getByLabel("Required Degree").fill("Any degree");
      await press(page.getByRole("button", { name: "Create Job" }));
      await expectToast(page, "Enter a full link starting with https://");
      const field = page.getByLabel("Hiring Link");
      assert.equal(await field.getAttribute("aria-invalid"), "true");
      await page.locator("form").getByText("Enter a full link starting with https://").waitFor();
      assert.equal(await page.getByText(/hiringLink:|scheme:\/\/host/).count(), 0);
      await expectAccessible(page);
      await context.close();
    });
  }

  await t.step("390 px: the analytics tables say they scroll sideways", async () => {
    const { context, page } = await newPage(browser, 390);
    await openAs(page, s, main, "/admin/analytics?tab=jobs");
    await expectHeading(page, "Top Performing Jobs");
    const region = page.getByRole("region", { name: "Top Performing Jobs" });
    await region.getByText("Viewed Role").waitFor();
    await expectText(page, "Scroll sideways for more columns →");
    // Scrolled to its end, the sign goes: nothing more is out of view.
    await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await page.getByText("Scroll sideways for more columns →").waitFor({ state: "detached" });
    await context.close();
  });

  await t.step("1366 px: a table that fits shows no sign", async () => {
    const { context, page } = await newPage(browser, 1366);
    await openAs(page, s, main, "/admin/analytics?tab=jobs");
    await page.getByRole("region", { name: "Top Performing Jobs" }).getByText("Viewed Role")
      .waitFor();
    assert.equal(await page.getByText("Scroll sideways for more columns →").count(), 0);
    await context.close();
  });
});
