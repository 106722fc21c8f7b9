/**
 * The writes of a digest run (server/digests.ts), committed in groups: while one atomic write is
 * under way, the writes asked for meanwhile wait for it and then go together, at most ten (KV's
 * limit of checks), each checked against the alert as it was read or last written. A run of many
 * alerts costs about one write per ten alerts instead of two reads and two writes each, and no
 * write waits longer than the one before it takes.
 *
 * A digest's send is marked the moment the mail server accepts it: the next group write carries
 * it, ahead of any claim, with nothing read or sent first. A crash between the server's accept and
 * that write (the write under way, then this one: milliseconds) is the one window in which a
 * digest can go twice: after the claim's hold of 10 minutes, with the same Message-ID.
 */
import { type AlertDayField, keys } from "./keys.ts";
import { getAll } from "./atomic.ts";
import { stampedAt, unversioned, type Versioned } from "./schema-version.ts";
import { type Alert, ALERT_VERSION, type AlertStore, isDue, type MailTokens } from "./alerts.ts";

/** KV's limit of checks in one atomic write, and so of alerts in one group write. */
const GROUP_CHECKS = 10;

interface GroupWrite {
  /** The alert's key and the versionstamp it must still have. */
  check: Deno.AtomicCheck;
  apply(op: Deno.AtomicOperation): void;
  /** The day's count this write adds one to. */
  count?: AlertDayField;
  /** The write's versionstamp, or null when the alert had changed. */
  done(versionstamp: string | null): void;
  failed(error: unknown): void;
}

/** An alert as read or last written by this run, with the versionstamp it had then. */
export interface HeldAlert {
  alert: Alert;
  versionstamp: string;
}

export class DigestWrites {
  /** Marks of sends done go first: until one is written, a crash would send its digest again. */
  private marks: GroupWrite[] = [];
  private queue: GroupWrite[] = [];
  private draining = false;

  constructor(private kv: Deno.Kv, private store: AlertStore) {}

  /** The alerts of `ids` as they are now, read ten at a time; gone ones are left out. */
  async read(ids: string[]): Promise<HeldAlert[]> {
    const entries = await getAll<Versioned<Alert>>(this.kv, ids.map((id) => keys.alert(id)));
    return entries.flatMap((entry) =>
      entry.value ? [{ alert: unversioned(entry.value), versionstamp: entry.versionstamp }] : []
    );
  }

  /**
   * Takes a due alert for this run until `now + leaseMs`, with its mail's link tokens: no other
   * run takes it meanwhile, and should this one die it is due again when the lease ends. Null when
   * it changed since it was read (another run took it, or its owner paused or deleted it).
   */
  async claim(held: HeldAlert, now: Date, leaseMs: number, links: MailTokens) {
    const { alert } = held;
    if (!isDue(alert, now)) return null;
    const until = now.getTime() + leaseMs;
    const claimed: Alert = { ...alert, dueAt: until, sendingUntil: until };
    const versionstamp = await this.write(held, (op) => {
      op.delete(keys.alertDue(alert.dueAt!, alert.id)).set(keys.alertDue(until, alert.id), null)
        .set(keys.alert(alert.id), stampedAt(claimed, ALERT_VERSION));
      this.store.writeTokens(op, links);
    });
    return versionstamp ? { alert: claimed, versionstamp } : null;
  }

  /** Moves a due alert with nothing new on to `nextDue`: jobs are new after `now`. */
  async advance(held: HeldAlert, now: Date, nextDue: Date): Promise<boolean> {
    const { alert } = held;
    if (!isDue(alert, now)) return false;
    const next: Alert = { ...alert, since: now.toISOString(), dueAt: nextDue.getTime() };
    return await this.write(held, (op) => {
      op.delete(keys.alertDue(alert.dueAt!, alert.id))
        .set(keys.alertDue(nextDue.getTime(), alert.id), null)
        .set(keys.alert(alert.id), stampedAt(next, ALERT_VERSION));
    }) !== null;
  }

  /**
   * Ends a claimed alert's send, counted for the day: sent, jobs are new after `sentUpTo` and the
   * next digest is due at `nextDue`; failed (`sentUpTo` null), it is due again at `nextDue`. When
   * the alert changed meanwhile (paused, say), the store's own finish reads it and decides.
   */
  async finish(claimed: HeldAlert, sentUpTo: Date | null, nextDue: Date): Promise<void> {
    const { alert } = claimed;
    const next: Alert = {
      ...alert,
      since: sentUpTo?.toISOString() ?? alert.since,
      dueAt: nextDue.getTime(),
      sendingUntil: null,
    };
    const written = await this.write(claimed, (op) => {
      op.delete(keys.alertDue(alert.dueAt!, alert.id))
        .set(keys.alertDue(nextDue.getTime(), alert.id), null)
        .set(keys.alert(alert.id), stampedAt(next, ALERT_VERSION));
    }, sentUpTo ? "sent" : "failed");
    if (written === null) await this.store.finish(alert, sentUpTo, nextDue);
  }

  /** Queues a write checked against `held`; its versionstamp, or null when the alert changed. */
  private write(
    held: HeldAlert,
    apply: (op: Deno.AtomicOperation) => void,
    count?: AlertDayField,
  ): Promise<string | null> {
    return new Promise((done, failed) => {
      (count ? this.marks : this.queue).push({
        check: { key: keys.alert(held.alert.id), versionstamp: held.versionstamp },
        apply,
        count,
        done,
        failed,
      });
      if (!this.draining) this.drain();
    });
  }

  private async drain() {
    this.draining = true;
    // Writes asked for in this turn of the event loop join the first group.
    await Promise.resolve();
    while (this.marks.length || this.queue.length) {
      const group = this.marks.splice(0, GROUP_CHECKS);
      await this.commit([...group, ...this.queue.splice(0, GROUP_CHECKS - group.length)]);
    }
    this.draining = false;
  }

  /** One group in one atomic write; when a check fails, each write of the group alone. */
  private async commit(group: GroupWrite[]): Promise<void> {
    const op = this.kv.atomic();
    const counts = new Map<AlertDayField, number>();
    for (const write of group) {
      op.check(write.check);
      write.apply(op);
      if (write.count) counts.set(write.count, (counts.get(write.count) ?? 0) + 1);
    }
    const day = this.store.day();
    for (const [field, by] of counts) op.sum(keys.alertDay(day, field), BigInt(by));
    try {
      const result = await op.commit();
      if (result.ok) return group.forEach((write) => write.done(result.versionstamp));
      if (group.length === 1) return group[0].done(null);
    } catch (error) {
      if (group.length === 1) return group[0].failed(error);
    }
    for (const write of group) await this.commit([write]);
  }
}
