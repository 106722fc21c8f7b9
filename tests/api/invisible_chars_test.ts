/** NUL, ESC and right-to-left overrides never reach stored job or account text. */
import assert from "node:assert/strict";
import { sampleJob, testApp } from "../helpers/server.ts";
import { asMain } from "../helpers/admins.ts";

Deno.test("one-line fields lose control and bidi-override characters; text fields refuse them", async () => {
  await using t = await testApp();
  const created = await asMain(t, "POST", "/api/jobs", {
    ...sampleJob(),
    role: "Senior\u0000 Engineer\u001b[31m \u202eredli\u202c",
    companyName: "Acme\u2066 Labs\u2069\tIndia\u2028Pvt\u2029Ltd",
    keywords: ["go\u0007lang", "\u202dreact"],
    description: "Line one\n\tindented line two\r\nthree",
  });
  assert.equal(created.status, 201, created.body.message);
  assert.equal(created.body.job.role, "Senior Engineer[31m redli");
  assert.equal(created.body.job.companyName, "Acme Labs India Pvt Ltd");
  assert.deepEqual(created.body.job.keywords, ["golang", "react"]);
  assert.equal(created.body.job.description, "Line one\n\tindented line two\r\nthree");

  for (const hidden of ["\u0000", "\u001b", "\u202e", "\u2067", "\u0085"]) {
    const refused = await asMain(t, "POST", "/api/jobs", {
      ...sampleJob({ hiringLink: "https://example.com/other" }),
      description: `Looks fine ${hidden}but is not`,
    });
    assert.equal(refused.status, 400, JSON.stringify(hidden));
    assert.match(refused.body.message, /description: must not contain control characters/);
  }

  const renamed = await asMain(t, "PUT", "/api/admin/profile", {
    username: "Main\u202e nimdA",
  });
  assert.equal(renamed.body.admin.username, "Main nimdA");
});
