/** Sign-in as an attacker tries to block or guess it, and the password policy. */
import assert from "node:assert/strict";
import { testApp } from "../helpers/server.ts";
import { json, mainBody, request, signInMain } from "../helpers/admins.ts";
import { LOGIN_FAILURES_PER_ADDRESS } from "../../kv/constants.ts";
import { passwordProblem } from "../../server/password-policy.ts";

Deno.test("a flood of 30 concurrent sign-ins from one address never blocks the owner elsewhere", async () => {
  await using t = await testApp();
  await request(t, "POST", "/api/admin/create-main-admin", mainBody);
  const attacker = "198.51.100.66";
  let ownerDone = false;
  const attackerStatuses: number[] = [];
  // Thirty connections, each sending its next guess as soon as the last is answered.
  const flood = Array.from({ length: 30 }, async (_, i) => {
    for (let n = 0; !ownerDone; n++) {
      const answer = await request(
        t,
        "POST",
        "/api/admin/login",
        {
          email: n % 2 ? mainBody.email : `someone${i}-${n}@example.com`,
          password: `guess-${i}-${n}`,
        },
        json,
        attacker,
      );
      attackerStatuses.push(answer.status);
    }
  });
  const ownerStatuses = [];
  for (let i = 0; i < 16; i++) {
    const answer = await request(
      t,
      "POST",
      "/api/admin/login",
      {
        email: mainBody.email,
        password: mainBody.password,
      },
      json,
      `203.0.113.${i + 1}`,
    );
    ownerStatuses.push(answer.status);
  }
  ownerDone = true;
  await Promise.all(flood);
  assert.deepEqual(ownerStatuses, Array(16).fill(200), "every one of the owner's sign-ins");
  const checked = attackerStatuses.filter((status) => status === 401).length;
  assert.ok(checked <= LOGIN_FAILURES_PER_ADDRESS, `${checked} guesses checked`);
  assert.deepEqual(
    [...new Set(attackerStatuses)].sort(),
    [401, 429],
    "the flood is refused by its own throttles, never by a full hashing queue",
  );
});

Deno.test("a deactivated account's right password gets the wrong-password answer", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const created = await request(t, "POST", "/api/admin/register", {
    username: "Dormant",
    email: "dormant@example.com",
    password: "amber-kettle-river",
  }, main.headers);
  await request(t, "PUT", `/api/admin/${created.body.admin._id}/status`, {
    isActive: false,
  }, main.headers);
  const right = await request(t, "POST", "/api/admin/login", {
    email: "dormant@example.com",
    password: "amber-kettle-river",
  });
  const wrong = await request(t, "POST", "/api/admin/login", {
    email: "dormant@example.com",
    password: "not-it-at-all",
  });
  assert.deepEqual([right.status, right.body], [wrong.status, wrong.body]);
  assert.deepEqual([right.status, right.body.message], [401, "Invalid email or password"]);
});

Deno.test("new passwords: common ones and ones holding the username, e-mail or its part before the @ are refused, saying why", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const register = (username: string, email: string, password: string) =>
    request(t, "POST", "/api/admin/register", { username, email, password }, main.headers);
  for (const common of ["123456", "password1", "Qwerty123", "iloveyou"]) {
    const answer = await register("Asha", "asha@example.com", common);
    assert.equal(answer.status, 400, common);
    assert.match(answer.body.message, /one of the most common passwords/);
    assert.match(answer.body.message, /passphrase/);
  }
  const named = await register("Asha Rao", "asha@example.com", "my asha rao 2026");
  assert.deepEqual([named.status, named.body.message], [
    400,
    "The password must not contain the username or e-mail address.",
  ]);
  const mailed = await register("Asha", "asha@example.com", "x-asha@example.com-x");
  assert.equal(mailed.status, 400);
  const local = await register("Rajesh K", "rajesh.k@example.com", "RAJESH.K2026");
  assert.deepEqual([local.status, local.body.message], [
    400,
    "The password must not contain the part of the e-mail address before the @.",
  ]);
  const shortLocal = await register("Al", "al@example.com", "al-velvet-orbit");
  assert.equal(shortLocal.status, 201, "a part before the @ under 3 characters refuses nothing");
  const short = await register("Asha", "asha@example.com", "12345");
  assert.deepEqual([short.status, short.body.message], [
    400,
    "Password must be at least 6 characters",
  ]);
  assert.equal((await register("Asha", "asha@example.com", "velvet-orbit-lamp")).status, 201);

  const profile = await request(t, "PUT", "/api/admin/profile", {
    password: "123456",
    currentPassword: main.password,
  }, main.headers);
  assert.equal(profile.status, 400);
  assert.match(profile.body.message, /most common passwords/);
  const setup = await request(t, "POST", "/api/admin/create-main-admin", {
    ...mainBody,
    password: "123456",
  });
  assert.equal(setup.status, 409, "once a main admin exists nothing else is told");
});

Deno.test("new passwords that are a repeat, a run or only blanks are refused, saying which; passphrases holding one are not", async () => {
  await using t = await testApp();
  const main = await signInMain(t);
  const register = (password: string) =>
    request(t, "POST", "/api/admin/register", {
      username: "Asha",
      email: "asha@example.com",
      password,
    }, main.headers);
  const refusal = (pattern: string) =>
    `This password is ${pattern}, which is among the first passwords guessed. Please choose ` +
    "another: a passphrase of a few unrelated words is easy to remember and hard to guess.";
  // The two a tester registered as admins.
  for (
    const [password, pattern] of [
      ["aaaaaa", "one character repeated"],
      ["      ", "only blank characters"],
    ]
  ) {
    const answer = await register(password);
    assert.deepEqual([answer.status, answer.body.message], [400, refusal(pattern)], password);
  }
  const account = { username: "Asha", email: "asha@example.com" };
  const refused = {
    "one character repeated": ["555555", "999999", "aaaaaaaa", "AAAAAAAAAAAAAAAAAAAA", "!!!!!!"],
    "only blank characters": ["        ", " \t \t  ", "\u3000\u3000\u3000\u3000\u3000\u3000"],
    "a short pattern repeated": ["121212", "abcabc", "a1a1a1", "12341234", "1234512345"],
    "a run of letters or digits": [
      "654321",
      "abcdef",
      "ABCDEFG",
      "987654321",
      "0123456789",
      "0987654321",
      "zyxwvu",
    ],
  };
  for (const [pattern, passwords] of Object.entries(refused)) {
    for (const password of passwords) {
      assert.equal(await passwordProblem(password, account), refusal(pattern), password);
    }
  }
  // Only the whole password is judged: a passphrase with a run or a repeat in it is fine, and so
  // is a real phrase written twice.
  for (
    const password of [
      "velvet abcdef orbit",
      "654321 lamps by the river",
      "aaaaaa-quilt-harbour",
      "abcdeg",
      "xyzabc",
      "orbit lamp orbit lamp",
    ]
  ) {
    assert.equal(await passwordProblem(password, account), null, password);
  }
  assert.equal((await register("velvet abcdef orbit")).status, 201);
});
