/** `deno task alerts:send` in a process of its own sends the due digests over SMTP, once. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { testSmtp } from "../helpers/smtp.ts";
import { cli } from "../helpers/cli.ts";
import { seedJobs } from "../public/fixtures.ts";

Deno.test("deno task alerts:send sends what is due, and a second run nothing", async () => {
  await using smtp = await testSmtp();
  const folder = await Deno.makeTempDir();
  const kvPath = `${folder}/alerts.kv`;
  try {
    {
      await using t = await testApp({ kvPath, now: new Date("2026-03-02T07:00:00Z") });
      const requested = await t.services.alerts.request({
        email: "ops@example.com",
        query: { keywords: "welder" },
        frequency: "daily",
      });
      await t.services.alerts.confirm(requested!.confirm);
      await seedJobs(t, [{ role: "Welder", datePosted: "2026-03-02T07:30:00.000Z" }]);
    }
    // The task runs at the real time, long after the alert's 08:00 on 2 March 2026.
    const run = () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", cli, "send-alerts"],
        env: {
          DENO_KV_PATH: kvPath,
          SMTP_URL: smtp.url,
          SITE_URL: "https://jobs.example.com",
          NODE_ENV: "production",
        },
        stdout: "piped",
        stderr: "piped",
      }).output().then((output) => new TextDecoder().decode(output.stdout).trim());
    assert.match(await run(), /^Job alerts: 1 due, 1 digests sent, 0 with nothing new/);
    const [mail] = await smtp.received(1);
    assert.deepEqual(mail.to, ["ops@example.com"]);
    assert.match(mail.text, /^Welder$/m);
    // Nothing due, or (run across 08:00 UTC) the next digest with nothing new since the first.
    assert.match(
      await run(),
      /^Job alerts: (0 due, 0 digests sent|1 due, 0 digests sent, 1 with nothing new)/,
    );
    assert.equal(smtp.mails.length, 1);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});
