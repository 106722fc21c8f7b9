/**
 * Throttling of password and secret checks. Failures count per account and address together, so a
 * guesser elsewhere uses up only their own allowance and never locks the owner out, and per address
 * over every account, so one address cannot try account after account. Each attempt is counted
 * before the check, so a burst of parallel guesses is limited as if they came one by one; a success
 * takes the attempt back. The counts live in KV with an expiry, so every process sees the same ones
 * and none outlives its window. An account's counts are kept under a keyed hash of its e-mail, so
 * the database never holds an address a guesser typed.
 */
import { isIP } from "node:net";
import { deviceHash, type SessionStore } from "../kv/sessions.ts";
import type { FailureScope } from "../kv/keys.ts";
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_FAILURES_PER_ACCOUNT_ADDRESS,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  TWO_FACTOR_TRIES_PER_ACCOUNT,
} from "../kv/constants.ts";
import { fail } from "./errors.ts";

/**
 * The unit an address is throttled by. One IPv6 host usually holds a whole /64, so its addresses
 * count as one; an IPv4 address written in IPv6 form counts as that IPv4 address.
 */
export function addressBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const lower = address.toLowerCase().split("%")[0];
  const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return mapped[1];
  const [head, tail] = lower.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  // A trailing dotted IPv4 part stands for two groups.
  const size = (list: string[]) => list.reduce((n, group) => n + (group.includes(".") ? 2 : 1), 0);
  const left = groups(head);
  const right = groups(tail);
  const full = tail === undefined
    ? left
    : [...left, ...Array(8 - size(left) - size(right)).fill("0"), ...right];
  return `${full.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(":")}::/64`;
}

export interface Attempt {
  /** The password or secret was right: the attempt counts as no failure. */
  succeeded(): Promise<void>;
  /** The attempt was never checked (the server was too busy): it counts for nothing. */
  cancelled(): Promise<void>;
}

export class Throttle {
  /**
   * `keyedHash` names an account by its e-mail (normalised by the schemas) under a secret every
   * process shares (`Auth.keyedHash`), so they all count alike and nobody without it can try a list
   * of addresses against the counts.
   */
  constructor(
    private sessions: SessionStore,
    private now: () => Date,
    private keyedHash: (email: string) => Promise<string>,
  ) {}

  /**
   * Counts an attempt against `account` (an e-mail; none for the main-admin secret) from
   * `address`, or answers 429 with Retry-After when an allowance is used up. An attempt the
   * account can trust (`trusted`: from a browser that signed in to it before, or confirmed by
   * mail, or with a right two-factor code) is not held to the account's allowance over all
   * addresses, so a guesser spread over many addresses never locks the owner out. A browser the
   * account knows (`device`, its id) is counted as itself, not as its address: others behind the
   * same address (an office, a mobile network) cannot use up its allowance either.
   */
  async attempt(
    account: string | null,
    address: string,
    trusted = false,
    device?: string,
  ): Promise<Attempt> {
    const bucket = device ? `device ${await deviceHash(device)}` : addressBucket(address);
    const scopes: [FailureScope, number][] = [[{ address: bucket }, LOGIN_FAILURES_PER_ADDRESS]];
    if (account !== null) {
      const hashed = await this.keyedHash(account);
      scopes.push([{ account: hashed, address: bucket }, LOGIN_FAILURES_PER_ACCOUNT_ADDRESS]);
      if (!trusted) scopes.push([{ account: hashed }, LOGIN_FAILURES_PER_ACCOUNT]);
    }
    // Each scope is counted only once the ones before it admit the attempt, so parallel attempts
    // are admitted exactly as many as one after another would be.
    const counted: FailureScope[] = [];
    const giveBack = (scopes: FailureScope[]) =>
      Promise.all(scopes.map((scope) => this.sessions.countAttempt(scope, LOGIN_WINDOW_MS, -1)));
    for (const [scope, allowance] of scopes) {
      try {
        await this.admit(scope, allowance);
      } catch (error) {
        // Refused by the account's allowance over all addresses, the attempt still counts against
        // this address: a two-factor code sent with it was checked (a right one passes that
        // allowance), so a guesser holding the account back would otherwise try codes for free.
        if (scope.address !== undefined) await giveBack(counted);
        throw error;
      }
      counted.push(scope);
    }
    return {
      succeeded: async () => {
        // The owner's success forgives only their own address's failures: a guesser's failures
        // against the account elsewhere still count.
        await Promise.all([
          giveBack(counted.filter((scope) => scope.account === undefined || !scope.address)),
          ...counted.filter((scope) => scope.account !== undefined && scope.address).map((
            scope,
          ) => this.sessions.clearAttempts(scope)),
        ]);
      },
      cancelled: async () => {
        await giveBack(counted);
      },
    };
  }

  /**
   * Counts a two-factor code sent for `account` from a browser it does not know, before the code is
   * checked, or answers 429 `{ accountLocked: true }` once TWO_FACTOR_TRIES_PER_ACCOUNT were sent
   * in the window from anywhere: every address's own allowance would otherwise let a guesser
   * holding the password try the million codes from enough addresses. The owner signs in from a
   * browser the account knows, or confirms this one by the e-mailed link.
   */
  async codeAttempt(account: string): Promise<Attempt> {
    const scope: FailureScope = { codes: await this.keyedHash(account) };
    await this.admit(scope, TWO_FACTOR_TRIES_PER_ACCOUNT);
    const giveBack = async () => {
      await this.sessions.countAttempt(scope, LOGIN_WINDOW_MS, -1);
    };
    return { succeeded: giveBack, cancelled: giveBack };
  }

  /** Counts an attempt in `scope`; 429 with Retry-After once its allowance is used up. */
  private async admit(scope: FailureScope, allowance: number): Promise<void> {
    const { count, resetAt } = await this.sessions.countAttempt(scope, LOGIN_WINDOW_MS);
    if (count <= allowance) return;
    const seconds = Math.max(1, Math.ceil((resetAt - this.now().getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    const wait = `${minutes} minute${minutes === 1 ? "" : "s"}`;
    if (scope.address !== undefined) {
      fail(429, `Too many failed sign-in attempts. Try again in ${wait}.`, {}, {
        "retry-after": String(seconds),
      });
    }
    // Said alike whether the account exists or has two-factor sign-in: it tells a guesser nothing.
    fail(
      429,
      scope.codes === undefined
        ? "Too many failed sign-in attempts for this account from browsers it does not know. " +
          "Sign in with the code from your authenticator app, or have a link e-mailed to you " +
          `that confirms this browser, or try again in ${wait}.`
        : "Too many two-factor codes for this account from browsers it does not know. Sign in " +
          "from a browser you used before, or have a link e-mailed to you that confirms this " +
          `browser, or try again in ${wait}.`,
      { accountLocked: true },
      { "retry-after": String(seconds) },
    );
  }
}
