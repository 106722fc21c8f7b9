/**
 * Each job's share image: the job page's og:image and twitter:image are an absolute link to a
 * 1200 x 630 PNG drawn with the job's role, company and location, cached for good under the job's
 * revision, and a new link once the job changes.
 */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { get, LONGEST_JOB, seedJobs } from "./fixtures.ts";
import { shareImageSvg, wrapText } from "../../routes/share-image.ts";

function metaImages(html: string) {
  return {
    og: html.match(/<meta property="og:image" content="([^"]+)"/)?.[1],
    twitter: html.match(/<meta name="twitter:image" content="([^"]+)"/)?.[1],
  };
}

async function png(t: Awaited<ReturnType<typeof testApp>>, url: string) {
  const answer = await t.app.request(new URL(url).pathname + new URL(url).search);
  const bytes = new Uint8Array(await answer.arrayBuffer());
  const view = new DataView(bytes.buffer);
  return {
    status: answer.status,
    type: answer.headers.get("content-type"),
    cacheControl: answer.headers.get("cache-control"),
    signature: [...bytes.slice(1, 4)].map((byte) => String.fromCharCode(byte)).join(""),
    size: bytes.length > 24 ? [view.getUint32(16), view.getUint32(20)] : [],
  };
}

Deno.test("a job page's share image is the job's own PNG, linked absolutely", async () => {
  await using t = await testApp({ config: { SITE_URL: "https://jobs.example.com" } });
  const [job] = await seedJobs(t, [
    { role: "Data Engineer", companyName: "Acme Analytics", location: "Pune, Maharashtra" },
  ]);
  const { og, twitter } = metaImages((await get(t, `/jobs/${job.jobId}`)).html);
  assert.match(
    og!,
    new RegExp(`^https://jobs\\.example\\.com/jobs/${job.jobId}/share\\.png\\?v=\\w+$`),
  );
  assert.equal(twitter, og);
  const image = await png(t, og!);
  assert.deepEqual(
    [image.status, image.type, image.signature, image.size],
    [200, "image/png", "PNG", [1200, 630]],
  );
  assert.equal(image.cacheControl, "public, max-age=31536000, immutable");
  // Without the revision (an old link) it may change: cached an hour only.
  assert.equal(
    (await png(t, og!.replace(/\?v=\w+$/, ""))).cacheControl,
    "public, max-age=3600",
  );

  // An edited job links a new image; the old link is no longer cached for good.
  t.clock.now = new Date(Date.parse(job.updatedAt) + 60_000);
  const result = await t.services.jobs.update(
    job.jobId,
    sampleJob({ role: "Staff Data Engineer" }),
  );
  assert.ok(result.ok);
  const edited = metaImages((await get(t, `/jobs/${job.jobId}`)).html).og!;
  assert.notEqual(edited, og);
  assert.equal((await png(t, edited)).cacheControl, "public, max-age=31536000, immutable");
  assert.equal((await png(t, og!)).cacheControl, "public, max-age=3600");

  assert.equal((await png(t, "https://x/jobs/JB-999999/share.png")).status, 404);
});

Deno.test("the share image shows role, company and location, cut to fit", () => {
  const svg = shareImageSvg({
    role: "C++ & <Rust> Engineer",
    companyName: "Tata Consultancy Services",
    location: "Remote (India)",
  });
  for (const text of ["C++ &amp; &lt;Rust&gt; Engineer", "Tata Consultancy Services"]) {
    assert.ok(svg.includes(text), text);
  }
  assert.ok(svg.includes("Remote (India)"));
  const role = wrapText(LONGEST_JOB.role!, 60, true, 3);
  assert.equal(role.length, 3);
  assert.ok(role[2].endsWith("…"));
  assert.ok(role[0].startsWith("PrincipalDistributed"));
  assert.deepEqual(wrapText("Senior Backend Engineer", 60, true, 3), ["Senior Backend Engineer"]);
});

Deno.test("the fonts and renderer the images are drawn with are not served as assets", async () => {
  await using t = await testApp();
  for (const file of ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "resvg.wasm"]) {
    const answer = await t.app.request(`/assets/share-image/${file}`);
    assert.equal(answer.status, 404, file);
    await answer.body?.cancel();
  }
  const styles = await t.app.request("/assets/styles.css");
  assert.equal(styles.status, 200);
  await styles.body?.cancel();
});
