/**
 * Each job's share image (1200 x 630 PNG, what a link preview shows): the job's role, company and
 * location on the site's colours. The SVG is written here; resvg (WebAssembly, so no native
 * library) draws it with the DejaVu fonts on a thread of its own (server/share-image-drawer.ts),
 * one image at a time, by a short queue on a time budget (see `drawQueue`). A drawn image is kept
 * in the answer cache for the job's revision; the job page links it with that revision (`?v=`), so
 * the link can be cached for good and changes when the job does.
 */
import { Hono } from "hono";
import pLimit from "p-limit";
import type { Job } from "../kv/schemas.ts";
import type { AppEnv, Services } from "../server/context.ts";
import { DrawingFailed } from "../server/share-image-drawer.ts";
import { answerKeys } from "./cache-policy.ts";
import { type HeaderList, SecureAnswer } from "../server/security.ts";
import { escapeXml } from "./pages/seo.ts";
import { iconUrl } from "./icons.ts";

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
const MARGIN = 96;
const TEXT_WIDTH = SHARE_IMAGE_WIDTH - 2 * MARGIN;
/** What a kept answer costs beyond its PNG bytes. */
const ANSWER_OVERHEAD = 2048;

/** The revision part of a job's image link: changes whenever the job is saved. */
function versionOf(job: Pick<Job, "updatedAt">): string {
  return Date.parse(job.updatedAt).toString(36);
}

/** The image's path with the job's revision, for the page's og:image. */
export function shareImagePath(job: Pick<Job, "jobId" | "updatedAt">): string {
  return `/jobs/${encodeURIComponent(job.jobId)}/share.png?v=${versionOf(job)}`;
}

/**
 * The width of `text` in DejaVu Sans at `size` px, a little over rather than under: narrow and wide
 * letters apart, every other character at the bold face's usual advance.
 */
function textWidth(text: string, size: number, bold: boolean): number {
  let ems = 0;
  for (const char of text) {
    if (/[ijlIft.,:;'!|()[\]\s]/.test(char)) ems += 0.4;
    else if (/[mwMW@%]/.test(char)) ems += 1.05;
    else if (/[A-Z0-9]/.test(char)) ems += 0.8;
    else ems += bold ? 0.72 : 0.64;
  }
  return ems * size;
}

/**
 * `text` in at most `maxLines` lines of `width`: broken at spaces, a word longer than a line broken
 * where it must, and the last line cut with "…" when the text does not fit.
 */
export function wrapText(
  text: string,
  size: number,
  bold: boolean,
  maxLines: number,
  width = TEXT_WIDTH,
): string[] {
  const fits = (line: string) => textWidth(line, size, bold) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.trim().split(/\s+/)) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const char of word) {
      if (!fits(line + char)) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  let last = lines[maxLines - 1];
  while (last && !fits(`${last}…`)) last = [...last].slice(0, -1).join("");
  return [...lines.slice(0, maxLines - 1), `${last.trimEnd()}…`];
}

function textLines(lines: string[], x: number, y: number, lineHeight: number, style: string) {
  return lines.map((line, i) =>
    `<text x="${x}" y="${y + i * lineHeight}" ${style}>${escapeXml(line)}</text>`
  ).join("");
}

/** The SVG of a job's share image. */
export function shareImageSvg(job: Pick<Job, "role" | "companyName" | "location">): string {
  const role = wrapText(job.role, 60, true, 3);
  const company = wrapText(job.companyName, 40, false, 2);
  const location = wrapText(job.location, 32, false, 1);
  const roleTop = 250;
  const companyTop = roleTop + role.length * 72 + 8;
  const locationTop = companyTop + company.length * 50 + 10;
  const font = `font-family="DejaVu Sans"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE_WIDTH}" height="${SHARE_IMAGE_HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#4338ca"/>` +
    `<g transform="translate(${MARGIN} 84)">` +
    `<rect width="72" height="72" rx="18" fill="#ffffff" fill-opacity="0.16"/>` +
    `<path d="M20 30h32v24H20zM29 30v-7h14v7" fill="none" stroke="#fff" stroke-width="4.5"/>` +
    `<text x="96" y="50" ${font} font-size="40" font-weight="bold" fill="#fff">CareerEdge</text>` +
    `</g>` +
    textLines(role, MARGIN, roleTop, 72, `${font} font-size="60" font-weight="bold" fill="#fff"`) +
    textLines(company, MARGIN, companyTop, 50, `${font} font-size="40" fill="#e0e7ff"`) +
    textLines(location, MARGIN, locationTop, 40, `${font} font-size="32" fill="#c7d2fe"`) +
    `</svg>`;
}

interface ShareAnswers {
  /** Asked for with the job's current revision: may be kept for good. */
  versioned: SecureAnswer;
  /** Asked for without it (or an old one): kept an hour, as the job may change. */
  bare: SecureAnswer;
}

/** Images that may wait their turn to be drawn; beyond them a request gets the plain image. */
export const DRAWS_WAITING = 2;
/**
 * The share of the time drawing may take. An image takes a core for a tenth of a second or more,
 * and the cores answer pages too (one per worker under `deno serve --parallel`), so after each
 * image the next waits nine times as long as it took: a flood of new images then takes a tenth of
 * a core at most, and the rest get the plain image.
 */
const DRAWING_SHARE = 0.1;

/** Thrown for an image that found the queue full: answered with the plain image, kept nowhere. */
class QueueFull extends Error {}

/**
 * Draws one image at a time within the time budget; throws QueueFull when enough wait. `prepare`
 * (starting the drawing worker) is awaited first and counts for nothing: it happens once.
 */
export function drawQueue(
  draw: (job: ShareJob) => Promise<Uint8Array<ArrayBuffer>>,
  prepare: () => Promise<unknown> = () => Promise.resolve(),
) {
  const oneAtATime = pLimit(1);
  let nextAt = 0;
  /** Images drawing or waiting to. */
  let held = 0;
  return async (job: ShareJob): Promise<Uint8Array<ArrayBuffer>> => {
    if (held >= 1 + DRAWS_WAITING) throw new QueueFull();
    held++;
    try {
      return await oneAtATime(async () => {
        const wait = nextAt - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await prepare();
        const start = performance.now();
        try {
          return await draw(job);
        } finally {
          const took = performance.now() - start;
          nextAt = performance.now() + took * (1 / DRAWING_SHARE - 1);
        }
      });
    } finally {
      held--;
    }
  };
}

type ShareJob = Pick<Job, "role" | "companyName" | "location">;

export function shareImageRoutes({ jobs, cache, shareImages }: Services) {
  const app = new Hono<AppEnv>();
  const drawn = drawQueue(
    (job) => shareImages.draw(shareImageSvg(job)),
    () => shareImages.ready(),
  );
  app.get("/jobs/:id/share.png", async (c) => {
    const job = await jobs.get(c.req.param("id"), { visitor: true });
    if (!job || job.status !== "active") {
      c.header("cache-control", "no-store");
      return c.text("Not found", 404);
    }
    let answers;
    try {
      answers = await cache.remember<ShareAnswers>(
        answerKeys.shareImage(job._id),
        job.updatedAt,
        async () => {
          const png = await drawn(job);
          const headers = (cacheControl: string): HeaderList => [
            ["content-type", "image/png"],
            ["cache-control", cacheControl],
          ];
          return {
            value: {
              versioned: new SecureAnswer(png, 200, headers("public, max-age=31536000, immutable")),
              bare: new SecureAnswer(png, 200, headers("public, max-age=3600")),
            },
            bytes: png.length + ANSWER_OVERHEAD,
          };
        },
      );
    } catch (error) {
      if (!(error instanceof QueueFull || error instanceof DrawingFailed)) throw error;
      // The site's plain image for now; the job's own is drawn when it is asked for again.
      c.header("cache-control", "no-store");
      return c.redirect(iconUrl("share.png"), 302);
    }
    return (c.req.query("v") === versionOf(job) ? answers.versioned : answers.bare).response();
  });
  return app;
}
