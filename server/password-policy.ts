/**
 * What a new admin password must be beyond the specification's minimum length (checked by the
 * schema with its own message): not one of the most common passwords, and not containing the
 * account's own username or e-mail address. Each refusal says why.
 */
import { dictionary } from "@zxcvbn-ts/language-common";
import { fail } from "./errors.ts";

let common: Set<string> | null = null;

/** zxcvbn-ts's list of about 49,000 passwords seen most often in breaches, read on first use. */
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary["passwords-common"] as string[]);
  return common;
}

/** Why `password` may not be used by the account named `username` and `email`, or null. */
export function passwordProblem(
  password: string,
  account: { username: string; email: string },
): string | null {
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower)) {
    return "This password is one of the most common passwords. Please choose another: a " +
      "passphrase of a few unrelated words is easy to remember and hard to guess.";
  }
  const own = [account.username.trim().toLowerCase(), account.email.toLowerCase()];
  if (own.some((name) => name.length >= 3 && lower.includes(name))) {
    return "The password must not contain the username or e-mail address.";
  }
  return null;
}

/** Answers 400 with the reason when `password` breaks the policy. */
export function requireGoodPassword(
  password: string,
  account: { username: string; email: string },
): void {
  const problem = passwordProblem(password, account);
  if (problem) fail(400, problem);
}
