/**
 * Whether this process's clock can be trusted to age jobs. A clock that is days fast would move
 * every active job to the dump of a shared database, so each process writes a heartbeat with its
 * clock's time, and compares the heartbeats of the others with its own using the order KV gives
 * writes: a heartbeat whose versionstamp changed between two of ours was written between them, so
 * a clock that agrees with ours put a time between our two times on it. A process whose clock
 * disagrees with more than half of the live others (or with the only other) is out of step: it
 * runs no lifecycle until that ends.
 *
 * A process no other live one can vouch for (it is alone) is also judged by the times already
 * written in the database: when the newest activity record or the newest job is dated later than
 * its clock by more than the tolerance, its clock is slow, and it is out of step until it catches
 * up. The records are a judge only then: a fast process writes them too, and would otherwise leave
 * right clocks that vouch for each other out of step long after it stopped. Records cannot catch a
 * lone clock that is fast, so where the clock the database expires entries by can be read (the
 * machine's for a file, the server's Date over the network) it is the judge instead, at every
 * heartbeat and before jobs are aged (`verify`), whoever else is running: a clock changed after
 * the start is caught too.
 */
import { keys } from "./keys.ts";
import type { ReferenceClock } from "./db.ts";
import { CLOCK_TOLERANCE_MS } from "./constants.ts";

/** Heartbeats a silent process's entry survives before another process removes it. */
const SILENT_BEATS_BEFORE_REMOVAL = 20;

export interface ClockVerdict {
  inStep: boolean;
  /** Why not, in words for the log and the admin. */
  reason?: string;
  /** Whether the clock the database expires entries by gave it (`ReferenceClock`). */
  byReference?: boolean;
}

interface Heartbeat {
  at: number;
}

interface Seen {
  versionstamp: string;
  silentBeats: number;
}

export class ClockCheck {
  readonly processId = crypto.randomUUID();
  private seen = new Map<string, Seen>();
  private lastBeat: number | null = null;
  /** Whether a heartbeat has compared this clock with the others' yet. */
  private compared = false;
  private verdict: ClockVerdict = { inStep: true };

  /**
   * `reference`: the clock the database expires entries by (kv/db.ts `databaseClock`): where it
   * can be read, it alone judges this clock, at every heartbeat, from the first.
   */
  constructor(
    private kv: Deno.Kv,
    private now: () => Date,
    private readonly reference?: ReferenceClock,
  ) {}

  /**
   * Writes this process's heartbeat, compares the clocks, and logs a change of verdict. Until its
   * second heartbeat a process has seen nobody else's: every live process beats once in that time,
   * so only then does it know whether it is alone, and until then it ages no job (a clock days fast
   * would otherwise move them all in its first seconds).
   */
  async beat(): Promise<ClockVerdict> {
    const now = this.now().getTime();
    await this.kv.set(keys.clockHeartbeat(this.processId), { at: now } satisfies Heartbeat);
    const first = this.lastBeat === null;
    const differences = await this.othersSince(now);
    this.lastBeat = now;
    const judged = await this.byReference();
    if (judged) return this.settle(judged);
    if (first) {
      this.verdict = {
        inStep: false,
        reason: "this server has only just started and has not yet compared its clock with the " +
          "other servers' (it does within a heartbeat)",
      };
      return this.verdict;
    }
    return this.settle(
      differences.length === 0 ? await this.judgeByRecords(now) : judge(differences),
    );
  }

  /**
   * The verdict now, before jobs are aged: compared afresh with the reference clock where there is
   * one (a clock can be changed between heartbeats), else the last heartbeat's. A process that
   * never beats (a test app, a task) is in step: only servers age jobs on their own, and they beat
   * from the start.
   */
  async verify(): Promise<ClockVerdict> {
    const judged = await this.byReference();
    return judged ? this.settle(judged) : this.verdict;
  }

  /** This clock against the reference clock, read between two readings of it; null without one. */
  private async byReference(): Promise<ClockVerdict | null> {
    if (!this.reference) return null;
    const before = this.now().getTime();
    const reference = await this.reference.read();
    if (reference === null) return null;
    const after = this.now().getTime();
    // A server's Date has whole seconds.
    const off = Math.max(before - (reference + 1000), reference - after);
    if (off <= CLOCK_TOLERANCE_MS) return { inStep: true, byReference: true };
    const minutes = Math.round(off / 60_000).toLocaleString("en-US");
    const way = reference > after ? "behind" : "ahead of";
    return {
      inStep: false,
      byReference: true,
      reason: `this server's clock is about ${minutes} minutes ${way} ${this.reference.name}`,
    };
  }

  /** Takes a heartbeat's verdict, logging a change of it. */
  private settle(verdict: ClockVerdict): ClockVerdict {
    // The first comparison says nothing when it finds the clocks agree: that is the usual start.
    const compared = this.compared;
    if (!verdict.inStep && (this.verdict.inStep || !compared)) {
      console.error(`Job lifecycle paused: ${verdict.reason}`);
    } else if (verdict.inStep && compared && !this.verdict.inStep) {
      console.log("This process's clock agrees with the others again.");
    }
    this.compared = true;
    this.verdict = verdict;
    return verdict;
  }

  /** Out of step when the newest time written in the database is later than `now` allows. */
  private async judgeByRecords(now: number): Promise<ClockVerdict> {
    const newest = await this.newestWritten();
    if (newest === null || newest - now <= CLOCK_TOLERANCE_MS) return { inStep: true };
    const minutes = Math.round((newest - now) / 60_000);
    return {
      inStep: false,
      reason: `this server's clock is about ${minutes} minutes behind the newest time written in ` +
        `the database (${new Date(newest).toISOString()}), and no other running server vouches ` +
        "for it",
    };
  }

  /** The newest activity record's time and the newest job's creation, whichever is later. */
  private async newestWritten(): Promise<number | null> {
    const times: number[] = [];
    const newestOf = this.kv.list<{ at?: string }>({ prefix: keys.activities() }, {
      reverse: true,
      limit: 1,
    });
    for await (const entry of newestOf) times.push(Date.parse(entry.value.at ?? ""));
    const newestJob = this.kv.list<{ createdAt?: string }>({ prefix: keys.jobs() }, {
      reverse: true,
      limit: 1,
    });
    for await (const entry of newestJob) times.push(Date.parse(entry.value.createdAt ?? ""));
    const known = times.filter(Number.isFinite);
    return known.length ? Math.max(...known) : null;
  }

  /**
   * How far the clocks of the processes that beat since our last heartbeat were outside the
   * window their write must fall in (0 when inside), in milliseconds.
   */
  private async othersSince(now: number): Promise<number[]> {
    const differences: number[] = [];
    const seen = new Map<string, Seen>();
    for await (const entry of this.kv.list<Heartbeat>({ prefix: keys.clockHeartbeats() })) {
      const id = entry.key[entry.key.length - 1] as string;
      if (id === this.processId) continue;
      const before = this.seen.get(id);
      const wrote = before !== undefined && before.versionstamp !== entry.versionstamp;
      const silentBeats = wrote || !before ? 0 : before.silentBeats + 1;
      if (silentBeats >= SILENT_BEATS_BEFORE_REMOVAL) {
        await this.kv.atomic().check(entry).delete(entry.key).commit();
        continue;
      }
      seen.set(id, { versionstamp: entry.versionstamp, silentBeats });
      if (!wrote || this.lastBeat === null) continue;
      const { at } = entry.value;
      differences.push(Math.max(0, this.lastBeat - at, at - now));
    }
    this.seen = seen;
    return differences;
  }
}

/**
 * Out of step when more than half of the clocks that beat since our last heartbeat disagree with
 * ours, or the only one does.
 */
function judge(differences: number[]): ClockVerdict {
  const off = differences.filter((difference) => difference > CLOCK_TOLERANCE_MS);
  // With a single other process nobody can tell which clock is wrong, so neither ages jobs.
  if (off.length === 0 || (differences.length > 1 && off.length * 2 <= differences.length)) {
    return { inStep: true };
  }
  const minutes = Math.round(Math.max(...off) / 60_000);
  const others = `${differences.length} other running server${differences.length === 1 ? "" : "s"}`;
  return {
    inStep: false,
    reason: `this server's clock disagrees with ${off.length} of the ${others} by about ` +
      `${minutes} minutes`,
  };
}
