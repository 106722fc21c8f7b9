/** Configuration from the environment, checked once at start (README: Configuration). */
import { z } from "zod";
import { isAddressOrRange } from "./request.ts";
import { isDefaultDatabase } from "../kv/db.ts";

const booleanText = z.enum(["true", "false", "1", "0", "yes", "no"], {
  error: "must be true or false",
}).transform((value) => value === "true" || value === "1" || value === "yes");

const configSchema = z.object({
  PORT: z.coerce.number({ error: "must be a port number" }).int("must be a whole number").min(
    0,
    "must be 0 to 65535",
  ).max(65_535, "must be 0 to 65535").default(8000),
  DENO_KV_PATH: z.string().min(1, "must not be empty").optional(),
  DENO_KV_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  DENO_KV_ACCESS_TOKEN: z.string().min(1, "must not be empty").optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  MAIN_ADMIN_SECRET: z.string().min(12, "must be at least 12 characters").optional(),
  SEED_DEMO: booleanText.optional(),
  CACHE_MB: z.coerce.number({ error: "must be a number of megabytes" }).int(
    "must be a whole number",
  ).min(1, "must be 1 to 65536").max(65_536, "must be 1 to 65536").optional(),
  ACTIVITY_RETENTION_DAYS: z.coerce.number({ error: "must be a number of days" }).int(
    "must be a whole number of days",
  ).min(1, "must be 1 to 3650 days").max(3650, "must be 1 to 3650 days").default(365),
  SITE_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).transform((url) =>
    url.replace(/\/+$/, "")
  ).optional(),
  ALLOWED_HOSTS: z.string().transform((text) =>
    text.split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean)
  ).pipe(
    z.array(z.string().regex(/^[a-z0-9.-]+$/, "must be host names such as jobs.example.com")),
  ).default([]),
  TRUSTED_PROXIES: z.string().transform((text) => text.split(",").map((entry) => entry.trim()))
    .pipe(
      z.array(z.string()).refine(
        (entries) => entries.every(isAddressOrRange),
        "must be IP addresses or CIDR ranges separated by commas, such as 127.0.0.1,10.0.0.0/8",
      ),
    ).default([]),
  REVISION_POLL_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int(
    "must be a whole number of milliseconds",
  ).min(0, "must be 0 to 60000").max(60_000, "must be 0 to 60000").optional(),
  CLOCK_CHECK_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int(
    "must be a whole number of seconds",
  ).min(1, "must be 1 to 3600 seconds").max(3600, "must be 1 to 3600 seconds").default(30),
  TIMEZONE: z.string().refine((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "must be an IANA time zone such as UTC or Asia/Kolkata").default("UTC"),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" })
    .optional(),
  MAIL_FROM: z.string().trim().min(3, "must be an address such as CareerEdge <jobs@example.com>")
    .max(300, "must be at most 300 characters").refine(
      (text) => !/[\r\n]/.test(text),
      "must be one line",
    ).optional(),
  MAIL_RATE_PER_SECOND: z.coerce.number({ error: "must be a number of mails" }).positive(
    "must be more than 0",
  ).max(10_000, "must be at most 10000").default(10),
}).refine((env) => !(env.DENO_KV_PATH && env.DENO_KV_URL), {
  message: "set DENO_KV_PATH or DENO_KV_URL, not both",
  path: ["DENO_KV_URL"],
}).refine((env) => !env.DENO_KV_URL || env.DENO_KV_ACCESS_TOKEN, {
  message: "DENO_KV_ACCESS_TOKEN is required with DENO_KV_URL",
  path: ["DENO_KV_ACCESS_TOKEN"],
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads the configuration; a bad value throws a ConfigError with a one-line reason. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // Unset means the default database; set but empty is a mistake that would start an empty site.
  if (env.DENO_KV_PATH !== undefined && env.DENO_KV_PATH.trim() === "") {
    throw new ConfigError(
      "DENO_KV_PATH is set but empty; unset it to use ./data/careeredge.kv, or name the database file",
    );
  }
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = configSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(`${issue.path.join(".") || "configuration"} ${issue.message}`);
}

/**
 * Whether the demo jobs and analytics go into an empty database: with SEED_DEMO=true, or by default
 * only on the default local database (a configured database is a real site's).
 */
export function seedsDemo(config: Config): boolean {
  return config.SEED_DEMO ?? isDefaultDatabase(config);
}

/** The configuration tests use: an in-memory database, no demo data, fixed secrets. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    PORT: 0,
    DENO_KV_PATH: ":memory:",
    SEED_DEMO: false,
    TIMEZONE: "UTC",
    TRUSTED_PROXIES: [],
    ALLOWED_HOSTS: [],
    ACTIVITY_RETENTION_DAYS: 365,
    CLOCK_CHECK_SECONDS: 30,
    JWT_SECRET: "test-secret-test-secret-test-secret-0123",
    MAIN_ADMIN_SECRET: "test-main-admin-secret",
    MAIL_RATE_PER_SECOND: 10_000,
    ...overrides,
  };
}
