/**
 * The job list's alert form in Chromium at 390 px: awake it answers in place; without JavaScript
 * it posts and a page answers. Then the confirm and manage pages a mail's links open.
 */
import assert from "node:assert/strict";
import { browserTest, launchBrowser, screenshot, wakeIslands } from "../helpers/browser.ts";
import { testServer } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { seedJobs } from "../public/fixtures.ts";

const PHONE = { width: 390, height: 844 };

Deno.test("the alert form and the alert pages in Chromium", browserTest, async (t) => {
  await using smtp = await testSmtp();
  await using server = await testServer({ config: { SMTP_URL: smtp.url } });
  const now = new Date().toISOString();
  await seedJobs(server, [
    { role: "Python Developer", estPackage: "8-12 LPA", datePosted: now },
    { role: "Chef", datePosted: now },
  ]);
  await using browser = await launchBrowser();
  // Every kind of filter: words, a job field, and the list's own company, pay and date posted.
  const search =
    `${server.url}/jobs?keywords=python&employmentType=Full-Time&payMin=600000&postedWithin=30&company=Acme+Corp`;
  const words = "“python” at Acme Corp · Full-Time · 6 LPA and up · Posted in the last 30 days";

  await t.step("with JavaScript the form answers in place", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(search);
    await wakeIslands(page);
    const form = page.getByRole("region", { name: "Get new jobs like these by e-mail" });
    await form.getByText(`${words}. New matches only`).waitFor();
    await form.getByLabel("E-mail address").fill("someone@localhost");
    await form.getByRole("button", { name: "Create Alert" }).click();
    // The browser's own check stops an address it can tell is wrong; the server's catches this.
    await form.getByRole("status").getByText("domain must contain a dot").waitFor();
    await form.getByLabel("E-mail address").fill("seeker@example.com");
    await form.getByLabel("How often").selectOption("weekly");
    await form.getByRole("button", { name: "Create Alert" }).click();
    await form.getByRole("status").getByText(/Check your inbox/).waitFor();
    assert.equal(await form.getByLabel("E-mail address").inputValue(), "");
    await screenshot(form, "alert-form-390");
    const width = await page.evaluate(() => document.body.scrollWidth);
    assert.ok(width <= PHONE.width);
    const [mail] = await smtp.received(1);
    assert.ok(mail.text.includes(`${words} (weekly)`), mail.text);

    const confirm = mail.text.match(/\/alerts\/confirm\?token=[\w-]+/)![0];
    await page.goto(`${server.url}${confirm}`);
    await page.getByRole("button", { name: "Confirm the alert" }).click();
    await page.getByRole("heading", { name: "Your job alert is on" }).waitFor();
    await screenshot(page, "alert-confirmed-390");
    const manage = mail.text.match(/\/alerts\/manage\?token=[\w-]+/)![0];
    await page.goto(`${server.url}${manage}`);
    await page.getByRole("button", { name: `Pause ${words}` }).click();
    await page.getByText("Weekly · Paused").waitFor();
    await screenshot(page, "alert-manage-390");
    await context.close();
  });

  await t.step("without JavaScript the form posts and a page answers", async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(search);
    const form = page.getByRole("region", { name: "Get new jobs like these by e-mail" });
    await form.getByLabel("E-mail address").fill("nojs@example.com");
    await form.getByRole("button", { name: "Create Alert" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    const [, mail] = await smtp.received(2);
    assert.deepEqual(mail.to, ["nojs@example.com"]);
    assert.ok(mail.text.includes(`${words} (daily)`), mail.text);
    await context.close();
  });
});
