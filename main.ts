/**
 * Starts CareerEdge: `deno run main.ts` listens on PORT; `deno serve --parallel main.ts` runs it in
 * one worker per core, Deno listening and each worker answering with the default export.
 */
import { startCareerEdge } from "./server/start.ts";

const careerEdge = await startCareerEdge();

// At the top level, where Deno Deploy finds crons.
Deno.cron(
  "job lifecycle",
  careerEdge.hourly.lifecycle,
  { signal: careerEdge.stopSignal },
  careerEdge.lifecycle,
);
// Every quarter hour, so that digests leave at 08:00 in any TIMEZONE (some are 30 or 45 minutes
// off UTC); a run with nothing due reads one short range.
Deno.cron(
  "job alert digests",
  "*/15 * * * *",
  { signal: careerEdge.stopSignal },
  careerEdge.digests,
);

// Past days' counts are packed half an hour off the lifecycle, out of its way.
Deno.cron(
  "analytics day packs",
  careerEdge.hourly.packAnalytics,
  { signal: careerEdge.stopSignal },
  careerEdge.packAnalytics,
);

// Under `deno run` there is nothing for Deno to serve (it would only warn that there is).
export default careerEdge.servedByDeno
  ? { fetch: careerEdge.fetch, onListen: careerEdge.listening } satisfies Deno.ServeDefaultExport
  : {};

if (!careerEdge.servedByDeno) await careerEdge.listen();
