/** Sign-in under attack: throttling per account and address, trusted proxies, the hash queue. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { json, mainBody, request, signIn } from "../helpers/admins.ts";
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
} from "../../kv/constants.ts";
import { HASHES_AT_ONCE, HASHES_WAITING, HASHING_RETRY_SECONDS } from "../../server/passwords.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";

Deno.test("5 failures lock one account from one address only; 20 lock the address; the window ends", async () => {
  await using t = await testApp({ now: new Date("2026-06-01T00:00:00Z") });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const attempt = (email: string, password: string, address: string) =>
    request(t, "POST", "/api/admin/login", { email, password }, json, address);

  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    assert.equal((await attempt(mainBody.email, "bad", "192.0.2.1")).status, 401, `failure ${i}`);
  }
  const blocked = await attempt(mainBody.email, mainBody.password, "192.0.2.1");
  assert.equal(blocked.status, 429, "from that address even the right password waits");
  assert.equal(blocked.headers.get("retry-after"), String(LOGIN_WINDOW_MS / 1000));
  assert.match(blocked.body.message, /Too many failed sign-in attempts/);
  assert.equal(
    (await attempt(mainBody.email, mainBody.password, "192.0.2.2")).status,
    200,
    "the owner at another address signs in",
  );

  t.clock.now = new Date(t.clock.now.getTime() + LOGIN_WINDOW_MS - 1_000);
  const late = await attempt(mainBody.email, mainBody.password, "192.0.2.1");
  assert.deepEqual([late.status, late.headers.get("retry-after")], [429, "1"]);
  t.clock.now = new Date(t.clock.now.getTime() + 1_001);
  assert.equal((await attempt(mainBody.email, mainBody.password, "192.0.2.1")).status, 200);

  for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
    assert.equal((await attempt(`user${i}@example.com`, "bad", "198.51.100.50")).status, 401);
  }
  const fromAddress = await attempt(mainBody.email, mainBody.password, "198.51.100.50");
  assert.equal(fromAddress.status, 429);
  assert.equal((await attempt(mainBody.email, mainBody.password, "198.51.100.51")).status, 200);
});

Deno.test("a burst of parallel guesses is throttled as if they came one by one", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const answers = await Promise.all(
    Array.from(
      { length: HASHES_AT_ONCE + HASHES_WAITING },
      (_, i) =>
        request(t, "POST", "/api/admin/login", {
          email: mainBody.email,
          password: `guess-${i}`,
        }),
    ),
  );
  const statuses = answers.map((answer) => answer.status);
  const failures = LOGIN_FAILURES_PER_ACCOUNT_ADDRESS;
  assert.equal(statuses.filter((status) => status === 401).length, failures);
  assert.equal(statuses.filter((status) => status === 429).length, statuses.length - failures);
});

Deno.test("signing in successfully does not use up the address's allowance", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  for (let i = 0; i < 25; i++) {
    const login = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: mainBody.email,
        password: mainBody.password,
      },
      json,
      "198.51.100.77",
    );
    assert.equal(login.status, 200, `sign-in ${i + 1}`);
  }
});

/** Requests that come through a reverse proxy at 127.0.0.1 on behalf of `client`. */

const proxied = (client: string, headers: Record<string, string> = json) => ({
  ...headers,
  "x-forwarded-for": client,
});

Deno.test("a guesser spread over many addresses gets a few checks of an account; the owner's browser still signs in", async () => {
  await using t = await testApp({ config: { TRUSTED_PROXIES: ["127.0.0.1", "10.0.0.0/8"] } });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const login = (password: string, headers: Record<string, string>, address = "127.0.0.1") =>
    request(t, "POST", "/api/admin/login", { email: mainBody.email, password }, headers, address);
  const owner = await login(mainBody.password, proxied("203.0.113.20"));
  const device = owner.headers.get("set-cookie")!.split(";")[0];
  assert.match(owner.headers.get("set-cookie")!, /HttpOnly; SameSite=Strict/);

  // One address used up on other accounts, to show later that a spoofed hop is not believed.
  for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
    await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: `user${i}@example.com`,
        password: "guess",
      },
      proxied("198.51.100.3"),
      "127.0.0.1",
    );
  }
  // Forty addresses, five guesses each, as in the audit: only the account's allowance is checked.
  const statuses = [];
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login("guess", proxied(`198.18.0.${i}`))),
    );
    statuses.push(...answers.map((answer) => answer.status));
  }
  // Within the allowance an attempt is checked (401) or, when the hashing queue is full, refused
  // as busy (503, which gives its place in the allowance back); every other one is refused before
  // any hashing.
  const checked = statuses.filter((status) => status === 401).length;
  const busy = statuses.filter((status) => status === 503).length;
  assert.ok(checked <= LOGIN_FAILURES_PER_ACCOUNT && checked + busy >= LOGIN_FAILURES_PER_ACCOUNT);
  assert.equal(statuses.filter((status) => status === 429).length, 200 - checked - busy);

  const stranger = await login(mainBody.password, proxied("203.0.113.21"));
  assert.equal(stranger.status, 429, "a browser the account never used waits like the guessers");
  assert.match(stranger.body.message, /from browsers it does not know/);
  assert.equal(stranger.body.accountLocked, true);
  const withDevice = { ...proxied("203.0.113.21"), cookie: device };
  assert.equal((await login(mainBody.password, withDevice)).status, 200, "the owner signs in");
  // A chain of proxies: the nearest address that is not a trusted proxy is the client's.
  const chained = await login(mainBody.password, {
    ...proxied("198.51.100.3, 203.0.113.20, 10.1.2.3"),
    cookie: device,
  });
  assert.equal(chained.status, 200);
  // Written to the left of 198.51.100.3, whose allowance is used up, 203.0.113.20 proves nothing:
  // the attempt is that address's, refused by its own allowance before the account's.
  const spoofed = await login(mainBody.password, proxied("203.0.113.20, 198.51.100.3"));
  assert.deepEqual([spoofed.status, spoofed.body.accountLocked], [429, undefined]);
  assert.match(spoofed.body.message, /^Too many failed sign-in attempts\. Try again in/);
});

Deno.test("forwarding headers from anyone but a trusted proxy are ignored", async () => {
  for (const config of [{}, { TRUSTED_PROXIES: ["10.0.0.1"] }]) {
    await using t = await testApp({ config });
    await request(t, "POST", "/api/admin/create-main-admin", mainBody);
    const statuses = [];
    for (let i = 0; i <= LOGIN_FAILURES_PER_ADDRESS; i++) {
      const answer = await request(
        t,
        "POST",
        "/api/admin/login",
        {
          email: `user${i}@example.com`,
          password: "bad",
        },
        proxied(`198.51.100.${i}`),
        "203.0.113.9",
      );
      statuses.push(answer.status);
    }
    assert.deepEqual(statuses, [...Array(LOGIN_FAILURES_PER_ADDRESS).fill(401), 429]);
  }
});

Deno.test("the addresses of one IPv6 /64 count as one address", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const statuses = [];
  for (let i = 0; i <= LOGIN_FAILURES_PER_ADDRESS; i++) {
    const address = i % 2 ? `2001:db8:0:7::${i.toString(16)}` : `2001:DB8::7:${i}:0:0:1`;
    const answer = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: `user${i}@example.com`,
        password: "bad",
      },
      json,
      address,
    );
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [...Array(LOGIN_FAILURES_PER_ADDRESS).fill(401), 429]);
  const other = await request(
    t,
    "POST",
    "/api/admin/login",
    {
      email: mainBody.email,
      password: mainBody.password,
    },
    json,
    "2001:db8:0:8::1",
  );
  assert.equal(other.status, 200);
});

Deno.test("sign-ins beyond the hash queue get 503 with Retry-After, and cost no attempt", async () => {
  await using t = await testApp({ config: { TRUSTED_PROXIES: ["127.0.0.1"] } });
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const burst = HASHES_AT_ONCE + HASHES_WAITING + 30;
  const answers = await Promise.all(
    Array.from({ length: burst }, (_, i) =>
      request(
        t,
        "POST",
        "/api/admin/login",
        {
          email: `unknown${i}@example.com`,
          password: "guess",
        },
        proxied(`198.51.100.${i}`),
        "127.0.0.1",
      )),
  );
  const busy = answers.filter((answer) => answer.status === 503);
  assert.ok(busy.length >= burst - 2 * (HASHES_AT_ONCE + HASHES_WAITING), `${busy.length} busy`);
  assert.deepEqual(
    answers.filter((answer) => answer.status !== 503).map((answer) => answer.status),
    Array(burst - busy.length).fill(401),
  );
  assert.deepEqual(busy[0].body, {
    message: "The server is busy. Please try again in a few seconds.",
  });
  assert.equal(busy[0].headers.get("retry-after"), String(HASHING_RETRY_SECONDS));

  // An attempt refused as busy was never checked: the address keeps its whole allowance.
  const refused = answers.findIndex((answer) => answer.status === 503);
  const statuses = [];
  for (let i = 0; i <= LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    const answer = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: `unknown${refused}@example.com`,
        password: "guess",
      },
      proxied(`198.51.100.${refused}`),
      "127.0.0.1",
    );
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [...Array(LOGIN_FAILURES_PER_ACCOUNT_ADDRESS).fill(401), 429]);
});

Deno.test("the current password of a profile update is throttled as sign-in is", async () => {
  await using t = await testApp();
  const admin = await signIn(t);
  const update = (currentPassword: string, address: string) =>
    request(
      t,
      "PUT",
      "/api/admin/profile",
      {
        password: "another-password",
        currentPassword,
      },
      admin.headers,
      address,
    );
  for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_ADDRESS; i++) {
    const wrong = await update(`guess-${i}`, "192.0.2.40");
    assert.deepEqual([wrong.status, wrong.body.message], [400, "Current password is incorrect"]);
  }
  const blocked = await update(admin.password, "192.0.2.40");
  assert.equal(blocked.status, 429);
  assert.match(blocked.body.message, /Too many failed sign-in attempts/);
  const signInThere = await request(
    t,
    "POST",
    "/api/admin/login",
    {
      email: admin.email,
      password: admin.password,
    },
    json,
    "192.0.2.40",
  );
  assert.equal(signInThere.status, 429, "sign-in from that address shares the allowance");
  assert.equal((await update(admin.password, "192.0.2.41")).status, 200);
});

Deno.test("TRUSTED_PROXIES takes addresses and CIDR ranges, and refuses anything else", () => {
  assert.deepEqual(loadConfig({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8,::1" }).TRUSTED_PROXIES, [
    "127.0.0.1",
    "10.0.0.0/8",
    "::1",
  ]);
  assert.deepEqual(loadConfig({}).TRUSTED_PROXIES, []);
  for (const bad of ["proxy.local", "10.0.0.0/33", "1.2.3.4/", "127.0.0.1,,::1"]) {
    assert.throws(
      () => loadConfig({ TRUSTED_PROXIES: bad }),
      (error) =>
        error instanceof ConfigError && /TRUSTED_PROXIES must be IP addresses/.test(error.message),
      bad,
    );
  }
});
