/**
 * What a new admin password must be beyond the specification's minimum length (checked by the
 * schema with its own message): not one of the most common passwords, not made by a pattern
 * (a repeat, a run, only blanks), and not containing the account's own username, e-mail address
 * or the e-mail's part before the @. Each refusal says why.
 */
import { passwordPattern } from "../kv/password-patterns.ts";
import { fail } from "./errors.ts";

let common: Promise<Set<string>> | null = null;

/**
 * zxcvbn-ts's list of about 49,000 passwords seen most often in breaches, imported on first use:
 * its dictionaries take longer to load than the rest of the server, which a cold start must not
 * wait for.
 */
function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) =>
    new Set(dictionary["passwords-common"] as string[])
  );
  return common;
}

/** Why `password` may not be used by the account named `username` and `email`, or null. */
export async function passwordProblem(
  password: string,
  account: { username: string; email: string },
): Promise<string | null> {
  const lower = password.toLowerCase();
  if ((await commonPasswords()).has(lower)) {
    return "This password is one of the most common passwords. Please choose another: a " +
      "passphrase of a few unrelated words is easy to remember and hard to guess.";
  }
  const pattern = passwordPattern(password);
  if (pattern) {
    return `This password is ${pattern}, which is among the first passwords guessed. Please ` +
      "choose another: a passphrase of a few unrelated words is easy to remember and hard to guess.";
  }
  const email = account.email.toLowerCase();
  const own = [account.username.trim().toLowerCase(), email];
  if (own.some((name) => name.length >= 3 && lower.includes(name))) {
    return "The password must not contain the username or e-mail address.";
  }
  // The part before the @ is often the person's name (`rajesh.k` in `rajesh.k2026`); one shorter
  // than 3 characters would refuse too many passwords.
  const local = email.slice(0, email.lastIndexOf("@"));
  if (local.length >= 3 && lower.includes(local)) {
    return "The password must not contain the part of the e-mail address before the @.";
  }
  return null;
}

/** Answers 400 with the reason when `password` breaks the policy. */
export async function requireGoodPassword(
  password: string,
  account: { username: string; email: string },
): Promise<void> {
  const problem = await passwordProblem(password, account);
  if (problem) fail(400, problem);
}
