/** Traffic counting (issue 3). Until it lands, nothing is counted. */
import type { TrafficCounter } from "./context.ts";

export function createCounter(): TrafficCounter {
  return {
    pageView() {},
    jobView() {},
    jobClick() {},
    flush: () => Promise.resolve(),
  };
}
