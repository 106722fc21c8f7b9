/** The job form's pay in Chromium: the reading follows the package as it is typed; the admin's own pay is saved. */
import assert from "node:assert/strict";
import { sampleJob, testServer } from "../helpers/server.ts";
import { signIn } from "../helpers/admins.ts";
import { browserTest, launchBrowser, screenshot } from "../helpers/browser.ts";
import { createJob, expectHeading, newPage, openAs } from "./helpers.ts";

Deno.test(
  { name: "the job form reads the package and takes the admin's own pay", ...browserTest },
  async () => {
    await using s = await testServer();
    const main = await signIn(s, { main: true });
    const job = await createJob(s, main, sampleJob({ estPackage: "Best in industry" }));
    await using browser = await launchBrowser();
    const { page } = await newPage(browser, 390);
    await openAs(page, s, main, `/admin/jobs/edit/${job._id}`);
    await expectHeading(page, "Edit Job");
    const reading = page.getByTestId("pay-reading");
    assert.equal(
      await reading.textContent(),
      "Not read as a pay: set it below to show this job in salary filters",
    );
    const packageBox = page.getByRole("textbox", { name: "Estimated Package (₹)" });
    await packageBox.fill("8-12 LPA");
    await page.getByText("Read as ₹8,00,000 - ₹12,00,000 a year").waitFor();
    await packageBox.fill("Best in industry");
    await page.getByLabel("Set the pay myself").check();
    // What is typed stays as typed, and what is not whole rupees is refused with a reason.
    const minimum = page.getByRole("textbox", { name: "Minimum (₹)" });
    await minimum.pressSequentially("40k");
    assert.equal(await minimum.inputValue(), "40k");
    assert.equal(await reading.textContent(), "Enter whole rupees, digits only");
    await minimum.fill("");
    await minimum.pressSequentially("4.5");
    assert.equal(await minimum.inputValue(), "4.5");
    await page.getByRole("button", { name: "Update Job" }).click();
    await page.getByText("Pay must be a number of rupees").first().waitFor();
    assert.equal((await s.services.jobs.get(job._id))?.pay, null, "nothing was saved");
    await page.getByRole("textbox", { name: "Minimum (₹)" }).fill("40,000");
    await page.getByRole("textbox", { name: "Maximum (₹)" }).fill("60000");
    await page.getByRole("combobox", { name: "Per", exact: true }).selectOption("month");
    await page.getByText("Set by hand: ₹40,000 - ₹60,000 a month").waitFor();
    await screenshot(page, "admin-pay-390");
    await page.getByRole("button", { name: "Update Job" }).click();
    await page.waitForURL(/\/admin\/jobs(?!.*edit)/);
    const saved = await s.services.jobs.get(job._id);
    assert.deepEqual(saved?.pay, { min: 40000, max: 60000, period: "month", currency: "INR" });
  },
);
