/**
 * Sign-in floods: bursts of 200 parallel sign-ins with unknown e-mails from 50 addresses (through
 * the proxy the bench server trusts) while the job list is loaded. Password hashing must neither
 * hold on to memory (budget: within 150 MB of idle once the bursts end) nor slow public pages
 * (budget: p99 of /jobs within 100 ms during the bursts).
 */
import type { BenchContext } from "../harness.ts";

const SIGN_INS = 200;
const ADDRESSES = 50;
const MEMORY_BUDGET_MB = 150;
const PUBLIC_P99_BUDGET_MS = 100;

async function burst(url: string, round: number): Promise<number[]> {
  return await Promise.all(Array.from({ length: SIGN_INS }, async (_, i) => {
    const response = await fetch(`${url}/api/admin/login`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": `198.18.${round % 250}.${i % ADDRESSES}`,
      },
      body: JSON.stringify({ email: `nobody-${round}-${i}@example.com`, password: "guess" }),
    });
    await response.body?.cancel();
    return response.status;
  }));
}

export default async function signin(context: BenchContext) {
  const idle = await context.residentMemory();
  const statuses: number[] = [];
  let loading = true;
  const publicLoad = context.load("/jobs", { seconds: 4 }).finally(() => loading = false);
  for (let round = 0; loading; round++) statuses.push(...await burst(context.url, round));
  context.row(`GET /jobs during bursts of ${SIGN_INS} parallel sign-ins`, await publicLoad, {
    maxP99Ms: PUBLIC_P99_BUDGET_MS,
  });
  const unexpected = statuses.filter((status) => status !== 401 && status !== 503);
  if (unexpected.length) throw new Error(`sign-ins answered ${[...new Set(unexpected)]}`);
  context.row("  sign-ins sent during the load", { value: statuses.length, unit: "" });
  context.row("  of which checked (401), the rest 503", {
    value: statuses.filter((status) => status === 401).length,
    unit: "",
  });
  // glibc gives memory back when blocks are freed; a second is plenty for the last hashes to end.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  context.row("server resident memory after the bursts, above idle", {
    value: await context.residentMemory() - idle,
    unit: "MB",
  }, { max: MEMORY_BUDGET_MB });
}
