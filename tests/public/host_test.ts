/** Absolute links never come from a Host header the site does not answer to. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";
import { publicOrigin } from "../../routes/pages.tsx";
import { testSmtp } from "../helpers/smtp.ts";

const get = async (app: { request: (url: string) => Response | Promise<Response> }, url: string) =>
  await (await app.request(url)).text();

Deno.test("a forged Host puts its address in no page, feed, sitemap or robots.txt, nor in the cache", async () => {
  await using t = await testApp();
  const created = await asMain(t, "POST", "/api/jobs", sampleJob());
  const jobPage = `/jobs/${created.body.job.jobId}`;
  for (const path of ["/", "/jobs", jobPage, "/jobs/feed.xml", "/sitemap.xml", "/robots.txt"]) {
    const forged = await get(t.app, `http://evil.example${path}`);
    assert.ok(!forged.includes("evil.example"), path);
    // The next visitor at the real address is answered from the cache, with the real address.
    const real = await get(t.app, `http://localhost${path}`);
    assert.ok(!real.includes("evil.example"), path);
  }
});

Deno.test("SITE_URL wins; without it only this machine and ALLOWED_HOSTS give their own address", () => {
  const config = { PORT: 8000, ALLOWED_HOSTS: ["jobs.example.com"] };
  assert.equal(
    publicOrigin({ ...config, SITE_URL: "https://careeredge.example" }, "http://jobs.example.com/"),
    "https://careeredge.example",
  );
  assert.equal(publicOrigin(config, "http://jobs.example.com/jobs"), "http://jobs.example.com");
  assert.equal(publicOrigin(config, "http://localhost:5173/"), "http://localhost:5173");
  assert.equal(publicOrigin(config, "http://[::1]:8000/"), "http://[::1]:8000");
  assert.equal(publicOrigin(config, "http://evil.example/"), "http://localhost:8000");
  assert.equal(
    publicOrigin(config, "http://jobs.example.com.evil.example/"),
    "http://localhost:8000",
  );
});

Deno.test("with an allowed host, each request's links carry its own host, cached or not", async () => {
  await using t = await testApp({ config: { ALLOWED_HOSTS: ["a.example", "b.example"] } });
  const a = await get(t.app, "http://a.example/");
  const b = await get(t.app, "http://b.example/");
  const aAgain = await get(t.app, "http://a.example/");
  assert.match(a, /<link rel="canonical" href="http:\/\/a\.example\/"\/>/);
  assert.match(b, /<link rel="canonical" href="http:\/\/b\.example\/"\/>/);
  assert.ok(!b.includes("a.example") && !aAgain.includes("b.example"));
});

Deno.test("a forged Host puts its address in no alert mail or alert page: the tokens stay on the site", async () => {
  await using smtp = await testSmtp();
  await using t = await testApp({ config: { SMTP_URL: smtp.url } });
  // An attacker subscribes a victim's address through a forged Host.
  const asked = await t.app.request("http://evil.example/api/alerts", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "victim@example.com", keywords: "python", frequency: "daily" }),
  }, { remoteAddr: { hostname: "203.0.113.9", port: 1, transport: "tcp" } });
  assert.equal(asked.status, 202);
  const [mail] = await smtp.received(1);
  for (const part of [mail.text, mail.html, mail.header("List-Unsubscribe")!]) {
    assert.ok(!part.includes("evil.example"), part);
  }
  const confirm = mail.text.match(/http:\/\/localhost:\d+(\/alerts\/confirm\?token=[\w%-]+)/);
  assert.ok(confirm, mail.text);
  // The link's page, opened through the forged Host, names the real site only.
  for (const method of ["GET", "POST"]) {
    const page = await t.app.request(`http://evil.example${confirm[1]}`, { method });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(!html.includes("evil.example"), html);
  }
});
