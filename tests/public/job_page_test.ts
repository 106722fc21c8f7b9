/** A job page as served HTML: its panels, JSON-LD, closed and unknown jobs, apply, escaping. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";
import { type Job, SKILL_GROUPS } from "../../kv/schemas.ts";
import { keys } from "../../kv/keys.ts";
import { get, scriptData, seedJobs, setViews } from "./fixtures.ts";
import { shareTargets, shareText } from "../../client/components/share.ts";
import { CHROME_DESKTOP, from } from "../analytics/fixtures.ts";

Deno.test("the job page shows every panel, the view count and similar jobs", async () => {
  await using t = await testApp();
  const [job, same1, same2, same3, other] = await seedJobs(t, [
    {
      role: "Site Reliability Engineer",
      companyName: "Umbrella",
      description: "First line of the role.\nSecond line of the role.",
      requiredDegree: "B.E. or B.Tech",
      estPackage: "15-20 LPA",
      skills: {
        languages: ["Go"],
        technologies: ["Linux"],
        frameworks: [],
        databases: ["Redis"],
        tools: ["Terraform"],
        others: [],
      },
      datePosted: "2026-03-05T10:00:00.000Z",
    },
    { role: "Site Reliability Engineer", companyName: "Same One" },
    { role: "Site Reliability Engineer", companyName: "Same Two" },
    { role: "Site Reliability Engineer", companyName: "Same Three" },
    { role: "Site Reliability Engineer", companyName: "Same Four" },
  ]);
  await setViews(t, job, 41);
  // With the catalogue caught up the page renders whole (slow data would stream).
  await t.services.jobs.active();

  const { status, html } = await get(t, `/jobs/${job.jobId}`);
  assert.equal(status, 200);
  assert.match(html, /<title>Site Reliability Engineer at Umbrella/);
  assert.match(html, /<a href="\/jobs"[^>]*>← Back to Jobs<\/a>/);
  assert.match(html, /<h1 id="job-title"[^>]*>Site Reliability Engineer<\/h1>/);
  assert.ok(html.includes("Umbrella"));
  assert.ok(html.includes("Estimated Package"));
  assert.ok(html.includes("₹15-20 LPA"));
  // The class is the contract here: it keeps the author's line breaks (white-space: pre-wrap),
  // which the text alone would not show.
  assert.ok(
    html.includes('<p class="prewrap">First line of the role.\nSecond line of the role.</p>'),
  );
  assert.ok(html.includes("Required Qualifications"));
  assert.ok(html.includes("B.E. or B.Tech"));
  for (const label of ["Programming Languages", "Technologies", "Databases", "Tools"]) {
    assert.match(html, new RegExp(`<h3[^>]*>${label}</h3>`), label);
  }
  for (const label of ["Frameworks", "Other Skills"]) {
    assert.doesNotMatch(html, new RegExp(`<h3[^>]*>${label}</h3>`), label);
  }
  assert.ok(html.includes(`<dt>Job ID</dt><dd>${job.jobId}</dd>`));
  assert.ok(html.includes("March 5, 2026"));
  assert.ok(html.includes("<dt>Views</dt><dd><span>41</span></dd>"));
  assert.ok(html.includes("You&#x27;ll be redirected to the company&#x27;s application page"));
  // The class is the contract here: the no-JavaScript stylesheet hook that shows the note only
  // where the button cannot work.
  assert.match(
    html,
    />Save Job<span class="no-js-only small">\(needs JavaScript\)<\/span><\/button>/,
  );
  assert.equal(html.match(/Apply Now<\/a>/g)?.length, 2);
  assert.ok(html.includes(
    `href="/jobs/${job.jobId}/apply" target="_blank" rel="noopener noreferrer nofollow"`,
  ));
  assert.equal(html.match(/Share Job<\/button>/g)?.length, 2);
  assert.match(html, /<meta property="og:title" content="Site Reliability Engineer at Umbrella/);
  assert.match(html, /<meta name="twitter:card" content="summary_large_image"\/>/);
  assert.match(
    html,
    new RegExp(`<link rel="canonical" href="http://localhost/jobs/${job.jobId}"/>`),
  );

  const similar = html.slice(html.indexOf("Similar Jobs"));
  const shown = [same1, same2, same3, other].filter((j) => similar.includes(j.companyName));
  assert.equal(shown.length, 3);
  assert.ok(!similar.includes(`href="/jobs/${job.jobId}"`));

  // The count is filled per response: a new count shows without any job change, once the watch
  // brings it (under load that can take more than one request).
  await setViews(t, job, 42);
  await waitFor(
    "the new view count on the kept page",
    async () =>
      (await get(t, `/jobs/${job._id}`)).html.includes("<dt>Views</dt><dd><span>42</span></dd>"),
  );
});

Deno.test("an active job page carries JobPosting JSON-LD with every field Google asks for", async () => {
  await using t = await testApp();
  const [job, remote] = await seedJobs(t, [
    {
      role: "QA Engineer",
      companyName: "Hooli",
      companyLogo: "https://cdn.example/hooli.png",
      location: "Chennai, Tamil Nadu, India",
      employmentType: "Internship",
      estPackage: "8-12 LPA",
      description: "Test things.\nBreak things.",
      datePosted: "2026-03-05T10:00:00.000Z",
    },
    { role: "Writer", location: "Remote", employmentType: "Freelance" },
  ]);
  const [posting] = scriptData(
    (await get(t, `/jobs/${job.jobId}`)).html,
    "application/ld+json",
  ) as [
    Record<string, unknown>,
  ];
  assert.equal(posting["@context"], "https://schema.org/");
  assert.equal(posting["@type"], "JobPosting");
  assert.equal(posting.title, "QA Engineer");
  assert.equal(posting.description, "<p>Test things.<br>Break things.</p>");
  assert.equal(posting.datePosted, "2026-03-05T10:00:00.000Z");
  assert.equal(posting.validThrough, "2026-03-12T10:00:00.000Z");
  assert.equal(posting.employmentType, "INTERN");
  assert.deepEqual(posting.hiringOrganization, {
    "@type": "Organization",
    name: "Hooli",
    logo: "https://cdn.example/hooli.png",
  });
  assert.deepEqual(posting.jobLocation, {
    "@type": "Place",
    address: {
      "@type": "PostalAddress",
      addressLocality: "Chennai",
      addressRegion: "Tamil Nadu",
      addressCountry: "IN",
    },
  });
  assert.deepEqual(posting.identifier, {
    "@type": "PropertyValue",
    name: "Hooli",
    value: job.jobId,
  });
  assert.deepEqual(posting.baseSalary, {
    "@type": "MonetaryAmount",
    currency: "INR",
    value: { "@type": "QuantitativeValue", minValue: 800000, maxValue: 1200000, unitText: "YEAR" },
  });

  const [remotePosting] = scriptData(
    (await get(t, `/jobs/${remote.jobId}`)).html,
    "application/ld+json",
  ) as [Record<string, unknown>];
  assert.equal(remotePosting.jobLocationType, "TELECOMMUTE");
  assert.equal(remotePosting.jobLocation, undefined);
  assert.equal(remotePosting.employmentType, "CONTRACTOR");
  assert.equal(scriptData((await get(t, "/jobs")).html, "application/ld+json").length, 0);
});

Deno.test("closed jobs answer 410, unknown ones 404, both with the Job Not Found page", async () => {
  await using t = await testApp();
  const [dump, inactive] = await seedJobs(t, [{ status: "dump" }, { status: "inactive" }]);
  for (
    const [path, status] of [
      [`/jobs/${dump.jobId}`, 410],
      [`/jobs/${inactive._id}`, 410],
      ["/jobs/JB-999999", 404],
      [`/jobs/${dump.jobId}`, 410],
    ] as const
  ) {
    const { html, ...response } = await get(t, path);
    assert.equal(response.status, status, path);
    assert.ok(html.includes("Job Not Found"), path);
    assert.ok(
      html.includes("The position you&#x27;re looking for doesn&#x27;t exist or has been filled."),
    );
    assert.match(html, /<a href="\/jobs"[^>]*>Explore Other Jobs<\/a>/);
    assert.match(html, /<meta name="robots" content="noindex, follow"\/>/);
    assert.equal(scriptData(html, "application/ld+json").length, 0, path);
  }
});

Deno.test("the apply link records the click and sends the visitor on with 303", async () => {
  await using t = await testApp();
  const [active, dump] = await seedJobs(t, [{}, { status: "dump" }]);
  const applied = await get(t, `/jobs/${active.jobId}/apply`);
  assert.equal(applied.status, 303);
  assert.equal(applied.headers.get("location"), active.hiringLink);
  assert.equal((await get(t, `/jobs/${dump.jobId}/apply`)).status, 410);
  assert.equal((await get(t, "/jobs/JB-999999/apply")).status, 404);
});

Deno.test("a job number in other capitals goes to the job's page and apply link", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{}]);
  const number = job.jobId.slice(3);
  for (
    const [path, location] of [
      [`/jobs/jb-${number}`, `/jobs/${job.jobId}`],
      [`/jobs/Jb-${number}?utm_source=x`, `/jobs/${job.jobId}?utm_source=x`],
      [`/jobs/jb-${number}/apply`, `/jobs/${job.jobId}/apply`],
    ]
  ) {
    const { status, headers } = await get(t, path);
    assert.equal(status, 301, path);
    assert.equal(headers.get("location"), location, path);
  }
  // Only a job number is spelt over: any other id is looked up as it is.
  assert.equal((await get(t, `/jobs/${job._id.toUpperCase()}`)).status, 404);
});

Deno.test("any other public path redirects home", async () => {
  await using t = await testApp();
  for (const path of ["/about", "/contact", "/jobs/JB-1/apply/more", "/nothing/here"]) {
    const { status, headers } = await get(t, path);
    assert.equal(status, 302, path);
    assert.equal(headers.get("location"), "/", path);
  }
});

Deno.test("a page follows its job's changes made by another process on the same database", async () => {
  const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
  try {
    await using reader = await testApp({ kvPath });
    await using writer = await testApp({ kvPath });
    const [job] = await seedJobs(writer, [{ role: "Old Title" }]);
    await waitFor(
      "the new job",
      async () => (await get(reader, "/jobs")).html.includes("Old Title"),
    );
    assert.ok((await get(reader, `/jobs/${job.jobId}`)).html.includes("Old Title"));

    const { _id, jobId: _, status: __, ...input } = job;
    await writer.services.jobs.update(_id, { ...input, role: "New Title" } as Job);
    await waitFor("the edit", async () => (await get(reader, "/jobs")).html.includes("New Title"));
    assert.ok((await get(reader, `/jobs/${job.jobId}`)).html.includes("New Title"));

    await writer.services.jobs.setStatus(_id, "dump");
    await waitFor(
      "the closed job",
      async () => (await get(reader, `/jobs/${job.jobId}`)).status === 410,
    );
    assert.ok((await get(reader, "/jobs")).html.includes("0 Jobs Found"));
  } finally {
    await Deno.remove(kvPath).catch(() => {});
  }
});

/**
 * A KV handle that notes each read a request makes, as "method consistency", and in `keyNames` the
 * first part of each key a `getMany` reads.
 */
function readLog(reads: string[], keyNames: string[] = []) {
  return (kv: Deno.Kv) =>
    new Proxy(kv, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        if (property === "get" || property === "getMany" || property === "list") {
          return (...args: unknown[]) => {
            const [keyList, options] = args as [Deno.KvKey[], { consistency?: string } | undefined];
            // The follower's reads of the revision run beside requests, which never wait on them.
            if (!(property === "getMany" && keyList[0][0] === "jobs_meta")) {
              reads.push(`${String(property)} ${options?.consistency ?? "strong"}`);
              if (property === "getMany") keyNames.push(...keyList.map((key) => String(key[0])));
            }
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
}

Deno.test("a job page's first view is one eventual read of two keys: the job and its views", async () => {
  const reads: string[] = [];
  const keyNames: string[] = [];
  await using t = await testApp({ wrapKv: readLog(reads, keyNames) });
  const [job] = await seedJobs(t, [{ role: "One Trip Role" }, { role: "One Trip Role" }]);
  await setViews(t, job, 7);
  assert.equal((await get(t, "/jobs")).status, 200);

  reads.length = 0;
  keyNames.length = 0;
  const { status, html } = await get(t, `/jobs/${job.jobId}`);
  assert.equal(status, 200);
  assert.ok(html.includes("<dt>Views</dt><dd><span>7</span></dd>"));
  assert.ok(html.includes("Similar Jobs"));
  assert.deepEqual(reads, ["getMany eventual"]);
  // Each key costs a local database's thread a lookup that reads its neighbours whole.
  assert.deepEqual(keyNames, ["jobs", "job_counter"]);
});

Deno.test("Similar Jobs follow the role read with the job when the catalogue has not caught up yet", async () => {
  await using t = await testApp();
  const noSkills = Object.fromEntries(
    SKILL_GROUPS.map((group) => [group, [] as string[]]),
  ) as Job["skills"];
  const [job] = await seedJobs(t, [
    { role: "Rust Developer", companyName: "Viewed Co", skills: noSkills },
    { role: "Rust Developer", companyName: "Rusty Co", skills: noSkills },
    { role: "Data Scientist", companyName: "Data Co", skills: noSkills },
  ]);
  const similarOf = async () => {
    const { status, html } = await get(t, `/jobs/${job.jobId}`);
    assert.equal(status, 200);
    return html.slice(html.indexOf("Similar Jobs"));
  };
  assert.ok((await similarOf()).includes("Rusty Co"));
  // The record changes under the catalogue, as a write another process made and this one has
  // not followed yet would: the page (not kept at its first ask) shows the role it read, and the
  // jobs like that role.
  const entry = await t.kv.get<Job>(keys.job(job._id));
  await t.kv.set(keys.job(job._id), { ...entry.value!, role: "Data Scientist" });
  const similar = await similarOf();
  assert.ok(similar.includes("Data Co"), similar.slice(0, 400));
  assert.ok(!similar.includes("Rusty Co"));
});

Deno.test("a kept job page reads nothing, and its views follow this process's and others' counts", async () => {
  const reads: string[] = [];
  await using t = await testApp({ wrapKv: readLog(reads) });
  const [job] = await seedJobs(t, [{ role: "Kept Page Role" }, { role: "Kept Page Role" }]);
  await setViews(t, job, 3);
  await t.services.jobs.active();
  const views = async () =>
    /<dt>Views<\/dt><dd><span>(\d+)<\/span><\/dd>/.exec((await get(t, `/jobs/${job.jobId}`)).html)
      ?.[1];
  // The first view renders it, the second keeps it; then the watch tells the analytics counter.
  assert.equal(await views(), "3");
  assert.equal(await views(), "3");
  await waitFor("an answer without a read", async () => {
    reads.length = 0;
    await views();
    return reads.length === 0;
  });
  for (let i = 0; i < 5; i++) assert.equal(await views(), "3");
  assert.deepEqual(reads, []);

  // A visitor's view, written by this process's counter: the next answer shows it.
  const visit = await t.app.request(`/jobs/${job.jobId}`, {
    headers: { "user-agent": CHROME_DESKTOP, accept: "text/html" },
  }, from("203.0.113.9"));
  await visit.body?.cancel();
  await t.services.counter.flush();
  assert.equal(await views(), "4");

  // Written by another process: seen once the watch brings the new counter.
  await setViews(t, job, 40);
  await waitFor("another process's count", async () => (await views()) === "40");
});

Deno.test("job text with markup is rendered as text in the page, JSON-LD, share data and feed", async () => {
  await using t = await testApp();
  const role = "<script>alert(1)</script>";
  const companyName = '"><img src=x onerror=alert(2)>';
  const [job] = await seedJobs(t, [{
    role,
    companyName,
    location: "</script><script>alert(3)</script>",
    description: "<b>bold</b> & </script><!--",
    keywords: ["xss"],
  }]);

  for (const path of ["/", "/jobs", `/jobs/${job.jobId}`]) {
    const { html } = await get(t, path);
    assert.ok(!html.includes("<script>alert"), path);
    assert.ok(!html.includes("<img src=x"), path);
    assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), path);
    // Every script element is one of ours: module scripts and JSON data.
    const scripts = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
    for (const tag of scripts) {
      assert.match(tag, /^<script (type="module" src="\/assets\/|type="application\/(ld\+)?json")/);
    }
  }

  const { html } = await get(t, `/jobs/${job.jobId}`);
  const [posting] = scriptData(html, "application/ld+json") as [Record<string, unknown>];
  assert.equal(posting.title, role);
  assert.equal(
    posting.description,
    "<p>&lt;b&gt;bold&lt;/b&gt; &amp; &lt;/script&gt;&lt;!--</p>",
  );
  const islandProps = scriptData(html, "application/json") as Record<string, unknown>[];
  const share = islandProps.find((props) => "job" in props) as { job: { role: string } };
  assert.equal(share.job.role, role);
  assert.ok(
    /<div[^>]* role="region" aria-labelledby="share-dialog-preview" tabindex="0"><pre>/.test(html),
  );
  assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt; at &quot;&gt;&lt;img src=x"));

  const feed = await get(t, "/jobs/feed.xml?keywords=xss");
  assert.ok(!feed.html.includes("<script>"));
  assert.ok(!feed.html.includes("<img"));
  assert.ok(feed.html.includes("&lt;script&gt;alert(1)&lt;/script&gt; at &quot;&gt;&lt;img src=x"));
});

Deno.test("the share preview: up to 5 skills per group, 'Competitive' without a package", async () => {
  await using t = await testApp();
  const [job] = await seedJobs(t, [{
    role: "Analyst",
    companyName: "Vandelay",
    estPackage: undefined,
    skills: {
      languages: ["A1", "A2", "A3", "A4", "A5", "A6", "A7"],
      technologies: [],
      frameworks: ["F1"],
      databases: [],
      tools: [],
      others: [],
    },
  }]);
  const { html } = await get(t, `/jobs/${job.jobId}`);
  const preview = html.match(
    /<div[^>]* role="region" aria-labelledby="share-dialog-preview"[^>]*><pre>([^<]*)<\/pre>/,
  )![1];
  assert.ok(preview.startsWith("Analyst at Vandelay"));
  assert.ok(preview.includes("Package: Competitive"));
  assert.ok(preview.includes("Programming Languages: A1, A2, A3, A4, A5\n"));
  assert.ok(preview.includes("Frameworks: F1"));
  assert.ok(!preview.includes("Technologies:"));
  assert.ok(preview.endsWith(`Apply here: http://localhost/jobs/${job.jobId}`));
});

Deno.test("while a cold process loads its catalogue, a crawler gets the job page from its record at once", async () => {
  let release = () => {};
  const loaded = new Promise<void>((resolve) => (release = resolve));
  await using t = await testApp({
    wrapKv: (kv) =>
      new Proxy(kv, {
        get(target, property) {
          const value = Reflect.get(target, property);
          if (property !== "list") return typeof value === "function" ? value.bind(target) : value;
          // Reading every active job (a cold process's whole load) waits until released.
          return (selector: { prefix?: Deno.KvKey }, options?: Deno.KvListOptions) => {
            const inner = target.list(selector as Deno.KvListSelector, options);
            if (selector.prefix?.[0] !== "jobs_by_status") return inner;
            return (async function* () {
              await loaded;
              yield* inner;
            })();
          };
        },
      }),
  });
  try {
    const [job] = await seedJobs(t, [{ role: "Cold Start Role" }, { role: "Cold Start Role" }]);
    const crawler = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const page = await Promise.race([
      t.app.request(`/jobs/${job.jobId}`, { headers: { "user-agent": crawler } }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the crawler waited for the catalogue")), 5_000);
      }),
    ]);
    clearTimeout(timer);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.ok(html.includes("<h1") && html.includes("Cold Start Role"));
    assert.ok(html.includes('"@type":"JobPosting"'));
    assert.ok(html.includes("No similar jobs right now."));
    release();
    // Once the catalogue is in, the page has its Similar Jobs: the one made without them was not kept.
    await waitFor("the catalogue", () => t.services.jobs.loadedCatalog() !== null);
    const again = await t.app.request(`/jobs/${job.jobId}`, { headers: { "user-agent": crawler } });
    assert.ok(!(await again.text()).includes("No similar jobs right now."));
  } finally {
    release();
  }
});

Deno.test("share links encode a job's text as a form does, lone surrogates and all", () => {
  const url = "https://careeredge.example/jobs/acme-developer-JB-1";
  const tagged = (source: string) =>
    `${url}?${new URLSearchParams({ utm_source: source, utm_medium: "share" })}`;
  for (
    const role of [
      "a b",
      "!'()~*-._",
      "₹12 LPA – Senior (Dev) & QA's",
      "x+y=z?&#/",
      "😀\n\t%20",
      "\ud800 lone",
    ]
  ) {
    const job = {
      role,
      companyName: "Acme & Co",
      location: "Pune",
      experience: "1-2",
      employmentType: "Full-Time",
      skillGroups: [],
      url,
    };
    const headline = `${role} at Acme & Co`;
    const hrefs = Object.fromEntries(shareTargets(job).map(({ name, href }) => [name, href]));
    assert.deepEqual(hrefs, {
      X: `https://x.com/intent/post?${new URLSearchParams({ text: headline, url: tagged("x") })}`,
      LinkedIn: `https://www.linkedin.com/sharing/share-offsite/?${new URLSearchParams({
        url: tagged("linkedin"),
      })}`,
      WhatsApp: `https://wa.me/?${new URLSearchParams({
        text: shareText({ ...job, url: tagged("whatsapp") }),
      })}`,
      Telegram: `https://t.me/share/url?${new URLSearchParams({
        url: tagged("telegram"),
        text: headline,
      })}`,
    });
  }
});
