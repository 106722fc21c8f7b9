/**
 * The answer cache's memory bound: many distinct searches, and many spellings of one large search,
 * each leave the server's resident memory within 100 MB of where it was.
 */
import type { BenchContext } from "../harness.ts";
import { readBoard } from "../traffic.ts";
import { seededRandom } from "../../../kv/demo/generate.ts";

const GROWTH_BUDGET = { max: 100 };
const PARALLEL = 8;

async function fetchAll(base: string, paths: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++];
      const response = await fetch(base + path);
      await response.body?.cancel();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** `text` with random letter case and runs of spaces, tabs and pluses between its words. */
function respell(text: string, random: () => number): string {
  const gap = () => ["%20", "+", "%09", "%20%20", "++"][Math.floor(random() * 5)];
  const letters = [...text].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join("");
  return `${random() < 0.5 ? gap() : ""}${letters.split(" ").join(gap())}${
    random() < 0.5 ? gap() : ""
  }`;
}

export default async function cache(context: BenchContext) {
  const { words } = await readBoard(context.kvPath);
  const searches: string[] = [];
  for (const first of words) {
    for (const second of words) {
      for (const page of [1, 2, 3]) {
        for (const limit of [12, 50, 100]) {
          searches.push(`/api/jobs?keywords=${first}+${second}&page=${page}&limit=${limit}`);
        }
      }
    }
  }
  let before = await context.residentMemory();
  await fetchAll(context.url, searches.slice(0, 10_000));
  context.row(
    "memory growth after 10,000 distinct public searches",
    { value: (await context.residentMemory()) - before, unit: "MB" },
    GROWTH_BUDGET,
  );

  const random = seededRandom(500);
  const spellings = new Set<string>();
  while (spellings.size < 500) {
    const keywords = `keywords=${respell(`${words[0]} ${words[1]}`, random)}`;
    spellings.add(
      random() < 0.5
        ? `/api/jobs?${keywords}&limit=100`
        : `/api/jobs?limit=100&sortOrder=desc&${keywords}`,
    );
  }
  before = await context.residentMemory();
  await fetchAll(context.url, [...spellings]);
  context.row(
    "memory growth after 500 spellings of one limit=100 search",
    { value: (await context.residentMemory()) - before, unit: "MB" },
    GROWTH_BUDGET,
  );
}
