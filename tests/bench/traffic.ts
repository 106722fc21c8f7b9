/**
 * Real visitors, as the traffic scenarios send them: searches for words of the jobs on the board,
 * searches nobody made before, job pages spread over every active job, and the home page.
 */
import { keys } from "../../kv/keys.ts";
import { EMPLOYMENT_TYPES, type Job } from "../../kv/schemas.ts";
import { jobPath } from "../../client/components/job-card.tsx";

/** How many words the searches draw from. */
const VOCABULARY_SIZE = 34;

export interface Board {
  /** The most frequent words of the active jobs' roles and skills. */
  words: string[];
  /** Cities the active jobs are in, lower-cased. */
  cities: string[];
  /** The path of every active job's page. */
  jobPaths: string[];
}

/** Reads the active jobs of a benchmark database. */
export async function readBoard(kvPath: string): Promise<Board> {
  using kv = await Deno.openKv(kvPath);
  const counts = new Map<string, number>();
  const cities = new Set<string>();
  const jobPaths: string[] = [];
  for await (const { value: job } of kv.list<Job>({ prefix: keys.jobsByStatus("active") })) {
    jobPaths.push(jobPath(job));
    cities.add(job.location.split(",")[0].trim().toLowerCase());
    const text = [job.role, ...Object.values(job.skills).flat()].join(" ").toLowerCase();
    for (const word of new Set(text.match(/[a-z]{3,}/g))) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const words = [...counts].sort((a, b) => b[1] - a[1]).slice(0, VOCABULARY_SIZE).map(([w]) => w);
  return { words, cities: [...cities], jobPaths };
}

/** A job list search for two words, sometimes with a city, a type and a later page. */
export function keywordSearch(board: Board, random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const params = new URLSearchParams({ keywords: `${pick(board.words)} ${pick(board.words)}` });
  if (random() < 0.3) params.set("location", pick(board.cities));
  if (random() < 0.3) params.set("employmentType", pick(EMPLOYMENT_TYPES));
  const page = 1 + Math.floor(random() * 3);
  if (page > 1) params.set("page", String(page));
  return `/jobs?${params}`;
}

/** A Lua string literal of plain URL text. */
const lua = (text: string) => JSON.stringify(text);

/**
 * wrk's Lua for the mix: 45% keyword searches (drawn from `searches`), 10% never-seen searches (7
 * random letters), 37% job pages over every active job, 8% the home page; as a browser asks.
 */
export function trafficScript(board: Board, searches: string[]): string {
  return `
local searches = {${searches.map(lua).join(",")}}
local jobs = {${board.jobPaths.map(lua).join(",")}}
local headers = { ["accept-encoding"] = "gzip, deflate, br" }
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("number", threads)
end
function init(args)
  math.randomseed(tonumber(args[1]) + number)
end
function request()
  local r = math.random()
  local path
  if r < 0.45 then
    path = searches[math.random(#searches)]
  elseif r < 0.55 then
    local letters = {}
    for i = 1, 7 do letters[i] = string.char(96 + math.random(26)) end
    path = "/jobs?keywords=" .. table.concat(letters)
  elseif r < 0.92 then
    path = jobs[math.random(#jobs)]
  else
    path = "/"
  end
  return wrk.format("GET", path, headers)
end
`;
}
