/**
 * E-mail job alerts: a saved search and an address, confirmed by a link before anything is sent
 * (double opt-in), then a digest of its new jobs daily or weekly. Links in mails carry tokens of
 * 256 random bits of which only a hash is kept. An address is kept while it has an alert and goes
 * with its last one; a pending alert goes by itself after `PENDING_ALERT_DAYS`. A manage link
 * outlives them (`MAIL_LINK_DAYS`): its token names the address by a random id, which only the
 * address's own record (gone with it) leads back to, so no link keeps the address.
 */
import { type AlertDayField, keys } from "./keys.ts";
import { countInWindow, getAll, retrying, type WindowCount } from "./atomic.ts";
import { createHash } from "node:crypto";
import {
  CONFIRMATIONS_PER_ADDRESS_PER_DAY,
  DAY_MS,
  DIGEST_HOUR,
  MAIL_LINK_DAYS,
  MAX_ALERTS_PER_ADDRESS,
  PENDING_ALERT_DAYS,
} from "./constants.ts";
import { addDays, dayOf, momentAt, weekdayOf } from "./days.ts";
import { stampedAt, unversioned, type Versioned } from "./schema-version.ts";
import type { FilterParam } from "./job-fields.ts";
import { DigestWrites } from "./alert-digests.ts";

export const ALERT_FREQUENCIES = ["daily", "weekly"] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];

/** An alert's search: the same fields as the job list's, each as its query string writes it. */
export interface AlertQuery extends Partial<Record<FilterParam, string>> {
  keywords?: string;
  location?: string;
  /** A company's name, in any case. */
  company?: string;
  /** Rupees a year the top of the pay must reach. */
  payMin?: string;
  /** Days: kept for the link to the search; a digest holds only new jobs anyway. */
  postedWithin?: string;
}

export interface Alert {
  id: string;
  email: string;
  query: AlertQuery;
  frequency: AlertFrequency;
  status: "pending" | "active" | "paused";
  createdAt: string;
  confirmedAt: string | null;
  /** Jobs that became active after this moment have not been sent yet. */
  since: string | null;
  /** When the next digest is due (epoch ms), for an active alert. */
  dueAt: number | null;
  /** Set while a process sends its digest: no other process sends it before then. */
  sendingUntil: number | null;
}

/** What a mail's link may do. */
export type AlertToken =
  | { kind: "confirm"; alertId: string }
  | { kind: "unsubscribe"; alertId: string }
  /** `address`: the address's id (AlertAddress.id). */
  | { kind: "manage"; address: string }
  /**
   * As mailed before addresses had ids: honoured while the address has alerts. The last of these
   * expire 60 days after the release that stopped writing them; then this form can go.
   */
  | { kind: "manage"; email: string };

interface AlertAddress {
  alertIds: string[];
  /**
   * While every alert of the address is pending: when the record expires with them (ms since the
   * epoch), so a restored dump gives it the time it had left.
   */
  pendingUntil?: number;
  /**
   * What its manage links name it by: random, kept as long as the record (absent from records
   * written before ids, which get one at their next write).
   */
  id?: string;
}

/** Where a manage link's address id leads: written and deleted with the address's record. */
interface AddressById {
  email: string;
  /** As the address's record says, for a restore. */
  pendingUntil?: number;
}

/** The schema version every stored alert carries (kv/schema-version.ts). */
export const ALERT_VERSION = 1;
const PENDING_MS = PENDING_ALERT_DAYS * DAY_MS;
const MAIL_LINK_MS = MAIL_LINK_DAYS * DAY_MS;
/** 2^64 - 1: added to a Deno.KvU64 with `sum`, which wraps, it takes one away. */
const MINUS_ONE = 0xffffffffffffffffn;

/** Weekly digests go out on Mondays. */
const MONDAY = 1;

/** The first digest time after `after`: `DIGEST_HOUR` in `timeZone`, on a Monday if weekly. */
export function nextDigestAt(frequency: AlertFrequency, after: Date, timeZone: string): Date {
  const today = dayOf(after, timeZone);
  for (let days = 0;; days++) {
    const day = addDays(today, days);
    if (frequency === "weekly" && weekdayOf(day) !== MONDAY) continue;
    const moment = momentAt(day, DIGEST_HOUR, timeZone);
    if (moment > after) return moment;
  }
}

/** A new token for a link: 256 random bits, base64url. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/**
 * What the database keeps of a link's token: its SHA-256, in hex. Node's hash, not Web Crypto's:
 * a digest run hashes two tokens an alert, and Web Crypto's promise costs ten times as much.
 */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * For a restore of a dump with alerts: how long an alert entry has left to live, worked out again
 * as KV does not tell a dump. A pending alert keeps its days from when it was asked for, a count
 * its window; a link's token, whose age is not kept, gets its full time again (a link may work up
 * to that much longer than it would have). Undefined for entries kept for good.
 */
export function alertExpiry(now: Date) {
  const table = (key: Deno.KvKey) => key[0];
  return (key: Deno.KvKey, value?: unknown): number | undefined => {
    const left = (at: number) => Math.max(1, at - now.getTime());
    if (table(key) === table(keys.alert(""))) {
      const alert = value as Partial<Alert> | null;
      return alert?.status === "pending" && alert.createdAt
        ? left(Date.parse(alert.createdAt) + PENDING_MS)
        : undefined;
    }
    if (table(key) === table(keys.alertToken(""))) {
      return (value as Partial<AlertToken> | null)?.kind === "confirm" ? PENDING_MS : MAIL_LINK_MS;
    }
    if ([keys.alertAddress(""), keys.alertAddressById("")].map(table).includes(table(key))) {
      const until = (value as Partial<AddressById> | null)?.pendingUntil;
      return until ? left(until) : undefined;
    }
    const counts = [keys.alertConfirmations(""), keys.alertRequests("")].map(table);
    if (counts.includes(table(key))) {
      return left((value as Partial<WindowCount> | null)?.resetAt ?? 0);
    }
    return undefined;
  };
}

/** The address's record with its id: a new one for a new address, or for a record from before ids. */
const withId = (address: AlertAddress): AlertAddress & { id: string } => ({
  ...address,
  id: address.id ?? crypto.randomUUID(),
});

/** Whether the alert's digest is due at `now` and no sender has it. */
export const isDue = (alert: Alert, now: Date) =>
  alert.status === "active" && alert.dueAt !== null && alert.dueAt <= now.getTime();

/** Whether two searches are the same search. */
const sameQuery = (a: AlertQuery, b: AlertQuery) => queryText(a) === queryText(b);

/** A search as compared: its values without regard to case, accents' encoding or spacing. */
const queryText = (query: AlertQuery) =>
  JSON.stringify(
    Object.entries(query).map(([name, value]) => [
      name,
      value?.normalize("NFC").toLowerCase().trim().replace(/\s+/g, " "),
    ]).sort(),
  );

/** The links a mail about an alert carries: tokens to be written, and their texts. */
export interface MailTokens {
  unsubscribe: string;
  manage: string;
  writes: { hash: string; token: AlertToken }[];
}

export class AlertStore {
  constructor(private kv: Deno.Kv, private now: () => Date, private timeZone: string) {}

  async get(id: string): Promise<Alert | null> {
    const entry = await this.kv.get<Versioned<Alert>>(keys.alert(id));
    return entry.value ? unversioned(entry.value) : null;
  }

  /** Counts a request from one client address; the count within the hour. */
  async countRequest(bucket: string): Promise<number> {
    const { count } = await countInWindow(
      this.kv,
      keys.alertRequests(bucket),
      60 * 60 * 1000,
      this.now(),
    );
    return count;
  }

  /** The address's alerts that still exist. */
  async alertsOf(
    email: string,
  ): Promise<{ entry: Deno.KvEntryMaybe<AlertAddress>; alerts: Alert[] }> {
    const entry = await this.kv.get<AlertAddress>(keys.alertAddress(email));
    const ids = entry.value?.alertIds ?? [];
    const records = await getAll<Versioned<Alert>>(this.kv, ids.map((id) => keys.alert(id)));
    const alerts = records.flatMap((record) => record.value ? [unversioned(record.value)] : []);
    return { entry, alerts };
  }

  /**
   * Tokens for the unsubscribe and manage links of one mail about `alert`, whose address has the
   * id `addressId` (AlertAddress.id).
   */
  mailTokens(alert: Pick<Alert, "id">, addressId: string): MailTokens {
    const unsubscribe = newToken();
    const manage = newToken();
    return {
      unsubscribe,
      manage,
      writes: [
        { hash: tokenHash(unsubscribe), token: { kind: "unsubscribe", alertId: alert.id } },
        { hash: tokenHash(manage), token: { kind: "manage", address: addressId } },
      ],
    };
  }

  /**
   * Adds to `op` the address's record and the entry its id leads to: while every alert of the
   * address is pending both expire with them, at the time the record says; else both are kept.
   */
  private writeAddress(
    op: Deno.AtomicOperation,
    email: string,
    address: AlertAddress & { id: string },
  ): Deno.AtomicOperation {
    const until = address.pendingUntil;
    const expireIn = until ? Math.max(1, until - this.now().getTime()) : undefined;
    const byId: AddressById = until ? { email, pendingUntil: until } : { email };
    return op.set(keys.alertAddress(email), address, { expireIn })
      .set(keys.alertAddressById(address.id), byId, { expireIn });
  }

  /**
   * The ids of the addresses of `emails` that are kept, for their mails' manage links, read ten
   * at a time. A record from before ids gets one here, so a digest's link finds its address.
   */
  async addressIds(emails: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(emails)];
    const entries = await getAll<AlertAddress>(
      this.kv,
      unique.map((email) => keys.alertAddress(email)),
    );
    const ids = new Map<string, string>();
    await Promise.all(entries.map(async (entry, i) => {
      const id = entry.value && (entry.value.id ?? await this.giveId(unique[i]));
      if (id) ids.set(unique[i], id);
    }));
    return ids;
  }

  /** Gives the record of an address from before ids its id; null when the address is gone. */
  private giveId(email: string): Promise<string | null> {
    return retrying(async () => {
      const entry = await this.kv.get<AlertAddress>(keys.alertAddress(email));
      if (!entry.value) return { id: null };
      const address = withId(entry.value);
      if (address.id === entry.value.id) return { id: address.id };
      const op = this.writeAddress(this.kv.atomic().check(entry), email, address);
      return (await op.commit()).ok ? { id: address.id } : undefined;
    }).then(({ id }) => id);
  }

  /**
   * The address a manage link is for: null once the address is gone (with its last alert), and
   * undefined when the token is not (or no longer) a manage link's.
   */
  async managedAddress(token: string): Promise<string | null | undefined> {
    const found = await this.token(token);
    if (found?.kind !== "manage") return undefined;
    if ("email" in found) return found.email;
    const address = await this.kv.get<AddressById>(keys.alertAddressById(found.address));
    return address.value?.email ?? null;
  }

  /**
   * Asks for an alert: a new pending alert, or the pending one with the same search again. Answers
   * what the confirmation mail needs, or null when none is to be sent: the alert exists and is
   * confirmed, the address has its 10 alerts, or it had its 3 confirmation mails today.
   */
  async request(
    input: { email: string; query: AlertQuery; frequency: AlertFrequency },
  ): Promise<{ alert: Alert; confirm: string; links: MailTokens } | null> {
    const confirm = newToken();
    const confirmHash = tokenHash(confirm);
    const plan = await retrying(async () => {
      const { entry, alerts } = await this.alertsOf(input.email);
      const same = alerts.find((alert) =>
        sameQuery(alert.query, input.query) && alert.frequency === input.frequency
      );
      if (same && same.status !== "pending") return { sent: false as const };
      if (!same && alerts.length >= MAX_ALERTS_PER_ADDRESS) return { sent: false as const };
      const confirmations = await this.kv.get<WindowCount>(keys.alertConfirmations(input.email));
      const nowMs = this.now().getTime();
      if (
        confirmations.value && confirmations.value.resetAt > nowMs &&
        confirmations.value.count >= CONFIRMATIONS_PER_ADDRESS_PER_DAY
      ) return { sent: false as const };
      const at = this.now().toISOString();
      const alert: Alert = same ?? {
        id: crypto.randomUUID(),
        email: input.email,
        query: input.query,
        frequency: input.frequency,
        status: "pending",
        createdAt: at,
        confirmedAt: null,
        since: null,
        dueAt: null,
        sendingUntil: null,
      };
      const ids = [...alerts.map((a) => a.id).filter((id) => id !== alert.id), alert.id];
      const allPending = alerts.every((a) => a.status === "pending");
      const address = withId(
        allPending
          ? { alertIds: ids, pendingUntil: Date.parse(at) + PENDING_MS, id: entry.value?.id }
          : { alertIds: ids, id: entry.value?.id },
      );
      const links = this.mailTokens(alert, address.id);
      const op = this.kv.atomic().check(entry).check(confirmations)
        .set(keys.alertToken(confirmHash), { kind: "confirm", alertId: alert.id }, {
          expireIn: PENDING_MS,
        });
      this.writeAddress(op, input.email, address);
      if (!same) {
        op.set(keys.alert(alert.id), stampedAt(alert, ALERT_VERSION), { expireIn: PENDING_MS });
      }
      this.writeTokens(op, links);
      const count = confirmations.value && confirmations.value.resetAt > nowMs
        ? confirmations.value
        : { count: 0, resetAt: nowMs + DAY_MS };
      op.set(keys.alertConfirmations(input.email), { ...count, count: count.count + 1 }, {
        expireIn: count.resetAt - nowMs,
      });
      return (await op.commit()).ok ? { sent: true as const, alert, links } : undefined;
    });
    return plan.sent ? { alert: plan.alert, confirm, links: plan.links } : null;
  }

  writeTokens(op: Deno.AtomicOperation, links: MailTokens): Deno.AtomicOperation {
    for (const { hash, token } of links.writes) {
      op.set(keys.alertToken(hash), token, { expireIn: MAIL_LINK_MS });
    }
    return op;
  }

  /** What a link's token may do, if it is one and still good. */
  async token(token: string): Promise<AlertToken | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    return (await this.kv.get<AlertToken>(keys.alertToken(tokenHash(token)))).value;
  }

  /** The alert a confirm or unsubscribe token is for. */
  async alertOf(token: string, kind: "confirm" | "unsubscribe"): Promise<Alert | null> {
    const found = await this.token(token);
    return found?.kind === kind ? await this.get(found.alertId) : null;
  }

  /**
   * Confirms the alert of a confirmation link: it is kept for good, and its first digest is due
   * at the next `DIGEST_HOUR` (on a Monday, for a weekly one). Null when the link is not (or no
   * longer) good; a second use changes nothing.
   */
  async confirm(token: string): Promise<Alert | null> {
    const alert = await this.alertOf(token, "confirm");
    if (!alert) return null;
    const hash = tokenHash(token);
    const confirmed = await this.update(alert.id, (current, op) => {
      const at = this.now();
      const confirmed: Alert = {
        ...current,
        status: "active",
        confirmedAt: at.toISOString(),
        since: at.toISOString(),
        dueAt: nextDigestAt(current.frequency, at, this.timeZone).getTime(),
      };
      op.delete(keys.alertToken(hash))
        .set(keys.alertDue(confirmed.dueAt!, current.id), null)
        .sum(keys.alertTotal("confirmed"), 1n)
        .sum(keys.alertDay(this.day(), "confirmed"), 1n);
      return confirmed;
    }, { pendingOnly: true });
    return confirmed ?? await this.get(alert.id);
  }

  /**
   * Changes one alert with `change`, in one atomic write with what `change` adds to `op`, checked
   * against the alert as read and keeping its address without expiry once it is confirmed. Null
   * when the alert is gone (or, with `pendingOnly`, no longer pending).
   */
  async update(
    id: string,
    change: (alert: Alert, op: Deno.AtomicOperation) => Alert | null,
    { pendingOnly = false } = {},
  ): Promise<Alert | null> {
    return await retrying(async () => {
      const entry = await this.kv.get<Versioned<Alert>>(keys.alert(id));
      if (!entry.value) return { alert: null };
      const current = unversioned(entry.value);
      if (pendingOnly && current.status !== "pending") return { alert: null };
      const op = this.kv.atomic().check(entry);
      const next = change(current, op);
      if (!next) return { alert: null };
      op.set(keys.alert(id), stampedAt(next, ALERT_VERSION));
      if (current.status === "pending" && next.status !== "pending") {
        // Confirmed: the address is kept for as long as it has an alert.
        const address = await this.kv.get<AlertAddress>(keys.alertAddress(current.email));
        op.check(address);
        if (address.value) {
          this.writeAddress(
            op,
            current.email,
            withId({ alertIds: address.value.alertIds, id: address.value.id }),
          );
        }
      }
      return (await op.commit()).ok ? { alert: next } : undefined;
    }).then(({ alert }) => alert);
  }

  /**
   * Ends a claimed alert's send, counting it for the day in the same write: after a digest went
   * out, jobs are new after `sentUpTo` and the next digest is due at `nextDue`; after a failed
   * send, `sentUpTo` is null and the digest is due again at once, for the next run. Null when the
   * claim was lost.
   */
  finish(claimed: Alert, sentUpTo: Date | null, nextDue: Date): Promise<Alert | null> {
    return this.update(claimed.id, (alert, op) => {
      if (alert.sendingUntil !== claimed.sendingUntil || alert.dueAt === null) return null;
      op.delete(keys.alertDue(alert.dueAt, alert.id))
        .set(keys.alertDue(nextDue.getTime(), alert.id), null)
        .sum(keys.alertDay(this.day(), sentUpTo ? "sent" : "failed"), 1n);
      return {
        ...alert,
        since: sentUpTo?.toISOString() ?? alert.since,
        dueAt: nextDue.getTime(),
        sendingUntil: null,
      };
    });
  }

  /** Pauses or resumes an alert; a resumed alert sends only jobs that are new from now. */
  setPaused(alert: Alert, paused: boolean): Promise<Alert | null> {
    return this.update(alert.id, (current, op) => {
      if (current.status === "pending" || (current.status === "paused") === paused) return current;
      if (current.dueAt !== null) op.delete(keys.alertDue(current.dueAt, current.id));
      if (paused) {
        op.sum(keys.alertTotal("confirmed"), MINUS_ONE);
        return { ...current, status: "paused", dueAt: null };
      }
      const dueAt = nextDigestAt(current.frequency, this.now(), this.timeZone).getTime();
      op.set(keys.alertDue(dueAt, current.id), null).sum(keys.alertTotal("confirmed"), 1n);
      return { ...current, status: "active", since: this.now().toISOString(), dueAt };
    });
  }

  /**
   * Deletes an alert with its due entry; the address's record goes with its last alert, and with
   * it the count of its confirmation mails.
   */
  async remove(id: string): Promise<Alert | null> {
    return await retrying(async () => {
      const entry = await this.kv.get<Versioned<Alert>>(keys.alert(id));
      if (!entry.value) return { alert: null };
      const alert = unversioned(entry.value);
      const address = await this.kv.get<AlertAddress>(keys.alertAddress(alert.email));
      const left = (address.value?.alertIds ?? []).filter((other) => other !== id);
      const op = this.kv.atomic().check(entry).check(address).delete(keys.alert(id));
      if (alert.dueAt !== null) op.delete(keys.alertDue(alert.dueAt, id));
      if (alert.status === "active") op.sum(keys.alertTotal("confirmed"), MINUS_ONE);
      const { alerts } = left.length ? await this.alertsOf(alert.email) : { alerts: [] };
      if (alerts.every((other) => other.id === id)) {
        op.delete(keys.alertAddress(alert.email)).delete(keys.alertConfirmations(alert.email));
        if (address.value?.id) op.delete(keys.alertAddressById(address.value.id));
      } else {
        // Still all pending (its record says until when): the address goes with them.
        this.writeAddress(op, alert.email, withId({ ...address.value!, alertIds: left }));
      }
      return (await op.commit()).ok ? { alert } : undefined;
    }).then(({ alert }) => alert);
  }

  /** The ids of active alerts whose digest is due at `now`, oldest due first. */
  async due(now: Date): Promise<string[]> {
    const ids: string[] = [];
    const entries = this.kv.list<null>({
      start: keys.alertsDue(),
      end: [...keys.alertsDue(), now.getTime() + 1],
    });
    for await (const entry of entries) ids.push(entry.key[2] as string);
    return ids;
  }

  /** The writes of one digest run, committed in groups (kv/alert-digests.ts). */
  digestWrites(): DigestWrites {
    return new DigestWrites(this.kv, this);
  }

  /** Adds one to a day's count of digests sent or failed. */
  async countDay(field: AlertDayField, by = 1): Promise<void> {
    await this.kv.atomic().sum(keys.alertDay(this.day(), field), BigInt(by)).commit();
  }

  /** The day it is now in the site's time zone. */
  day(): string {
    return dayOf(this.now(), this.timeZone);
  }

  /** Totals for the main admin: confirmed alerts now, and per day what was sent and failed. */
  async totals(days: string[]): Promise<{
    confirmed: number;
    days: { day: string; sent: number; failed: number; confirmed: number }[];
  }> {
    const confirmed = await this.kv.get<Deno.KvU64>(keys.alertTotal("confirmed"));
    const counts = new Map<string, bigint>();
    for await (
      const entry of this.kv.list<Deno.KvU64>({
        start: [...keys.alertDays(), days[0]],
        end: [...keys.alertDays(), addDays(days.at(-1)!, 1)],
      })
    ) counts.set(`${String(entry.key[1])} ${String(entry.key[2])}`, entry.value.value);
    const count = (day: string, field: AlertDayField) =>
      Number(counts.get(`${day} ${field}`) ?? 0n);
    return {
      confirmed: Number(confirmed.value?.value ?? 0n),
      days: days.map((day) => ({
        day,
        sent: count(day, "sent"),
        failed: count(day, "failed"),
        confirmed: count(day, "confirmed"),
      })),
    };
  }
}
