/** Reading and validating request input: malformed input is always a 400 with a message. */
import type { Context } from "hono";
import { z } from "zod";
import { bodyLimit } from "hono/body-limit";
import { describeIssue } from "../kv/schemas.ts";
import { fail } from "./errors.ts";

/** The request body as JSON, or a 400 naming the problem. */
export async function readJson(c: Context): Promise<unknown> {
  // The type itself, not its parameters: `text/plain; x=application/json` is one a page elsewhere
  // may send cross-origin without the browser asking first, so it must not pass for JSON.
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    fail(415, "Content-Type must be application/json");
  }
  const body = await c.req.text();
  try {
    return JSON.parse(body);
  } catch {
    fail(400, "Invalid JSON body");
  }
}

/** Parses `input` with `schema`, or ends the request with a 400 naming the first problem. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) fail(400, describeIssue(parsed.error));
  return parsed.data;
}

/** Validates the query string; repeated parameters and unknown ones are ignored. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

/**
 * A whole number in a query string, in plain digits only: "7.5", "1e2", "-7" and " 7" are refused
 * rather than guessed at. An absent parameter gives `fallback` (undefined where 0 asks something
 * and no value asks nothing); so does an empty one where a form without JavaScript sends empty
 * fields (`emptyIsAbsent`).
 */
export function wholeNumber<Fallback extends number | undefined>(
  min: number,
  max: number,
  fallback: Fallback,
  { emptyIsAbsent = false } = {},
) {
  const message = `must be a whole number from ${min} to ${max.toLocaleString("en-US")}`;
  return z.string().optional().transform((text, context) => {
    if (text === undefined || (emptyIsAbsent && text === "")) return fallback;
    const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
    if (!(value >= min && value <= max)) {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return value;
  });
}

/** Refuses a request body over `kilobytes` with 413, before any of it is parsed. */
export function limitBody(kilobytes: number) {
  return bodyLimit({
    maxSize: kilobytes * 1024,
    onError: (c) => c.json({ message: "Request body is too large" }, 413),
  });
}
