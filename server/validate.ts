/** Reading and validating request input: malformed input is always a 400 with a message. */
import type { Context } from "hono";
import type { z } from "zod";
import { describeIssue } from "../kv/schemas.ts";
import { fail } from "./errors.ts";

/** The request body as JSON, or a 400 naming the problem. */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
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
