/** Waiting on a condition with a deadline, instead of a fixed sleep. */

/**
 * Calls `check` until it returns a value other than `undefined` or `false`, at most `deadlineMs`;
 * then fails with `what`, saying how long it waited. Pauses between calls grow to `maxPauseMs`
 * (raise it where one call is costly, such as a request to a server process).
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  deadlineMs = 5_000,
  maxPauseMs = 50,
): Promise<T> {
  const start = performance.now();
  for (let pause = 1;; pause = Math.min(pause * 2, maxPauseMs)) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() - start > deadlineMs) {
      throw new Error(`Gave up after ${deadlineMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
