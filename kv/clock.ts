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
 * lone clock that is fast, so where the database is reached over the network its server's clock
 * (the Date of its answers) is the judge instead, at every heartbeat, whoever else is running.
 */
import { keys } from "./keys.ts";

/** How far two clocks may differ before one is out of step. */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;
/** Heartbeats a silent process's entry survives before another process removes it. */
const SILENT_BEATS_BEFORE_REMOVAL = 20;

export interface ClockVerdict {
  inStep: boolean;
  /** Why not, in words for the log and the admin. */
  reason?: string;
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
   * `machineClock`: the process opened the database file itself, which it does only with the
   * machine's clock (kv/db.ts), so its clock is right whatever the heartbeats say: it is in step
   * from the start, and a process that disagrees with it is the one out of step.
   */
  constructor(
    private kv: Deno.Kv,
    private now: () => Date,
    private readonly machineClock = false,
    /** The database server's time, over the network (kv/db.ts `databaseServerClock`). */
    private readonly serverClock?: () => Promise<number | null>,
  ) {}

  /**
   * The verdict of the last heartbeat. A process that never beats (a test app, a task) is in step:
   * only servers age jobs on their own, and they beat from the start.
   */
  current(): ClockVerdict {
    return this.verdict;
  }

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
    if (this.machineClock) return this.verdict;
    const server = await this.serverClock?.() ?? null;
    if (server !== null) return this.settle(byServer(now, server, this.now().getTime()));
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
 * Out of step when the database server's time, read between `before` and `after` on this clock,
 * is outside that span by more than the tolerance (its Date has whole seconds).
 */
function byServer(before: number, server: number, after: number): ClockVerdict {
  const off = Math.max(before - (server + 1000), server - after);
  if (off <= CLOCK_TOLERANCE_MS) return { inStep: true };
  const minutes = Math.round(off / 60_000);
  const way = server > after ? "behind" : "ahead of";
  return {
    inStep: false,
    reason: `this server's clock is about ${minutes} minutes ${way} the database server's`,
  };
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
