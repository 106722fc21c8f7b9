/**
 * Test fixtures: the app on a fresh in-memory KV (for `app.request()`), and the same app served on
 * a random local port (for browser tests). Each call gets its own database, so tests never share state.
 */
import { createApp, createServices } from "../../server/app.ts";
import { type Config, testConfig } from "../../server/config.ts";
import type { Services } from "../../server/context.ts";
import type { JobInput } from "../../kv/schemas.ts";
import { openTestKv } from "./kv.ts";
import { withDerived } from "../../kv/jobs/derived.ts";
import { mailsSent } from "../../server/mail.ts";
import type { ShareImageDrawer } from "../../server/share-image-drawer.ts";
import { HIRING_HOST } from "./hiring_site.ts";
import type { HashParams } from "../../server/passwords.ts";

/** Argon2id's least cost: 8 KiB, one pass (a fifth of a millisecond here against 73 ms). */
const LEAST_HASHING: HashParams = { memory: 8, passes: 1, parallelism: 1 };

export interface TestApp {
  app: ReturnType<typeof createApp>;
  services: Services;
  kv: Deno.Kv;
  /** Moves the app's clock; `now` starts at the real time unless given. */
  clock: { now: Date };
  [Symbol.asyncDispose](): Promise<void>;
}

export async function testApp(
  options: {
    config?: Partial<Config>;
    now?: Date;
    kvPath?: string;
    /** Through a KV Connect endpoint, as with TEST_KV=connect (tests/helpers/kv-connect.ts). */
    kvConnect?: boolean;
    /** Puts something between the services and KV, such as a write that fails (tests/helpers/kv.ts). */
    wrapKv?: (kv: Deno.Kv) => Deno.Kv;
    /** What draws share images, such as one whose worker fails. */
    shareImages?: ShareImageDrawer;
    /**
     * What new password hashes cost: by default Argon2id's least, as if every account were kept
     * from before the parameters were raised (sign-ins verify at a stored hash's own cost), so the
     * suite's hundreds of accounts take no minutes of processor; given as undefined, a server's.
     */
    passwordHashing?: HashParams;
  } = {},
): Promise<TestApp> {
  const kv = await openTestKv({ connect: options.kvConnect, path: options.kvPath });
  const clock = { now: options.now ?? new Date() };
  const services = createServices({
    kv: options.wrapKv?.(kv) ?? kv,
    config: testConfig(options.config),
    now: () => new Date(clock.now),
    // As a server does: visitors' answers follow the job data rather than read it.
    follow: true,
    shareImages: options.shareImages,
    passwordHashing: "passwordHashing" in options ? options.passwordHashing : LEAST_HASHING,
  });
  const app = createApp(services);
  return {
    app,
    services,
    kv,
    clock,
    async [Symbol.asyncDispose]() {
      await services.counter.flush();
      await mailsSent();
      services.mailer.close();
      services.shareImages.close();
      await services.jobs.close();
      await kv[Symbol.asyncDispose]();
    },
  };
}

export interface TestServer extends TestApp {
  url: string;
}

/** The real app served on 127.0.0.1 at a free port. */
export async function testServer(
  options: Parameters<typeof testApp>[0] = {},
): Promise<TestServer> {
  const base = await testApp(options);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, base.app.fetch);
  return {
    ...base,
    url: `http://127.0.0.1:${server.addr.port}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await base[Symbol.asyncDispose]();
    },
  };
}

let linkCounter = 0;

/** A valid job body; every call gets a unique hiring link. */
export function sampleJob(overrides: Partial<JobInput> = {}): JobInput {
  linkCounter++;
  return withDerived({
    companyName: "Acme Corp",
    role: "Software Engineer",
    location: "Bengaluru, India",
    experience: "2-3",
    employmentType: "Full-Time",
    description: "Build and run the services behind our product.\nWork with a small team.",
    requiredDegree: "B.Tech in Computer Science or equivalent",
    hiringLink: `https://${HIRING_HOST}/jobs/${Date.now()}-${linkCounter}`,
    estPackage: "8-12 LPA",
    skills: {
      languages: ["TypeScript", "Go"],
      technologies: ["Docker"],
      frameworks: ["React"],
      databases: ["PostgreSQL"],
      tools: ["Git"],
      others: ["Communication"],
    },
    keywords: ["backend", "cloud"],
    ...overrides,
  });
}
