/**
 * The public pages take turns when the server is busy: at most TURNS_AT_ONCE requests are between
 * their start and their answer, the others wait in the order they came, and each turn given up is
 * handed on in a task of its own, after what the event loop has ready.
 *
 * Why: a request that waits on KV (a job page's first view) resumes in the event loop's next round,
 * and without turns that round also runs every request that arrived during this one. Under the
 * real-traffic mix at 20,000 jobs a job page waited about two such rounds, 60-80 ms of server time
 * for 3 ms of work, and job pages were the whole of the slowest 1%. With turns, a request that
 * resumes is ahead of those that have not started: the mix's p99 went from 150-198 ms to 93-126 ms,
 * at the same rate (docs/decisions/036-requests-take-turns.md).
 *
 * A turn held past TURN_LIMIT_MS is given up for the request (which goes on without one): a search
 * waiting for a cold start's catalogue never holds up the ones behind it for longer. Only the
 * public pages take turns (routes/pages.tsx): they wait on nothing slower than a read of a nearby
 * replica. The admin app and the API wait on KV's primary (strong reads and commits, 100-150 ms
 * away on Deno Deploy), share images on their drawing thread; a flood of those holding turns would
 * hold every visitor up.
 */
import type { MiddlewareHandler } from "hono";
import { setImmediate } from "node:timers";

/** Two: one request runs while the other waits on KV; more let a round grow long again. */
export const TURNS_AT_ONCE = 2;
/** Much longer than a request's own work (a few ms), much shorter than a slow dependency. */
export const TURN_LIMIT_MS = 25;

interface Turn {
  /** `performance.now()` when it was given. */
  since: number;
  /** Whether it still counts against TURNS_AT_ONCE (false once given up for being held too long). */
  held: boolean;
}

export class Turns {
  private holding = new Set<Turn>();
  private waiting: ((turn: Turn) => void)[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private atOnce = TURNS_AT_ONCE, private limitMs = TURN_LIMIT_MS) {}

  /** Requests waiting for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `work` in a turn: at once when one is free, else after those that asked before. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.holding.size < this.atOnce
      ? this.give()
      : await new Promise<Turn>((resolve) => {
        this.waiting.push(resolve);
        this.watch();
      });
    try {
      return await work();
    } finally {
      this.end(turn);
    }
  }

  private give(): Turn {
    const turn = { since: performance.now(), held: true };
    this.holding.add(turn);
    return turn;
  }

  private end(turn: Turn): void {
    if (!turn.held) return;
    turn.held = false;
    this.holding.delete(turn);
    this.handOn();
  }

  /** The next waiting request gets a free turn, in a task of its own. */
  private handOn(): void {
    const next = this.waiting.shift();
    if (!next) return;
    if (this.waiting.length === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    setImmediate(next, this.give());
  }

  /** While requests wait, turns held too long are given up when their time is out. */
  private watch(): void {
    if (this.timer !== undefined || this.waiting.length === 0) return;
    let oldest = Infinity;
    for (const turn of this.holding) oldest = Math.min(oldest, turn.since);
    if (oldest === Infinity) return;
    const due = Math.max(0, oldest + this.limitMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = performance.now();
      for (const turn of this.holding) {
        if (now - turn.since >= this.limitMs) this.end(turn);
      }
      this.watch();
    }, due);
  }
}

/** Every request through `turns` (see above). */
export const takeTurns = (turns: Turns): MiddlewareHandler => (_c, next) => turns.run(next);
