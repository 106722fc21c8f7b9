/**
 * The pages of a forgotten password, rendered by the server and working without any script:
 * `/admin/forgot-password` asks for the e-mail, `/admin/reset-password?token=` sets the new
 * password. Both are noindex and never cached, and the link's page sends no Referer, so its token
 * stays on the page.
 */
import type { ReactNode } from "react";
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv, Services } from "../../server/context.ts";
import { limitBody } from "../../server/validate.ts";
import { secureResponse } from "../../server/security.ts";
import { confirmReset, requestReset, requireLiveLink, RESET_REQUESTED } from "./flow.ts";

/** The message of a refusal thrown with `fail`; anything else is thrown on. */
async function refusal(error: unknown): Promise<{ message: string; status: ContentfulStatusCode }> {
  if (!(error instanceof HTTPException)) throw error;
  const { message } = await error.getResponse().json() as { message: string };
  return { message, status: error.status as ContentfulStatusCode };
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-8 text-center">
          <p className="text-2xl font-bold text-indigo-700">CareerEdge</p>
          <h1 className="mt-2 text-xl font-semibold text-slate-900">{title}</h1>
        </div>
        <div className="card space-y-5 p-6">{children}</div>
      </div>
    </main>
  );
}

const SignInLink = ({ text = "Back to sign in" }: { text?: string }) => (
  <p className="text-sm">
    <a href="/admin/login" className="font-medium text-indigo-700 underline">{text}</a>
  </p>
);

function Problem({ message }: { message?: string }) {
  return message
    ? <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">{message}</p>
    : null;
}

function ForgotForm({ message }: { message?: string }) {
  return (
    <Card title="Forgot password?">
      <p className="text-sm text-slate-600">
        Enter the e-mail address of your admin account. We will send you a link to set a new
        password.
      </p>
      <Problem message={message} />
      <form method="post" action="/admin/forgot-password" className="space-y-5">
        <div>
          <label htmlFor="reset-email" className="field-label">Email</label>
          <input
            id="reset-email"
            name="email"
            type="email"
            autoComplete="username"
            required
            className="field"
          />
        </div>
        <button type="submit" className="btn-primary w-full">Send reset link</button>
      </form>
      <SignInLink />
    </Card>
  );
}

function ResetForm({ token, message }: { token: string; message?: string }) {
  return (
    <Card title="Set a new password">
      <p className="text-sm text-slate-600">
        At least 6 characters, not a common password and without your name or e-mail address. A
        passphrase of a few unrelated words is easy to remember and hard to guess.
      </p>
      <Problem message={message} />
      <form method="post" action="/admin/reset-password" className="space-y-5">
        <input type="hidden" name="token" value={token} />
        <div>
          <label htmlFor="reset-password" className="field-label">New password</label>
          <input
            id="reset-password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            className="field"
          />
        </div>
        <div>
          <label htmlFor="reset-repeat" className="field-label">Repeat the new password</label>
          <input
            id="reset-repeat"
            name="repeat"
            type="password"
            autoComplete="new-password"
            required
            className="field"
          />
        </div>
        <button type="submit" className="btn-primary w-full">Set password</button>
      </form>
    </Card>
  );
}

const field = (form: Record<string, unknown>, name: string) =>
  typeof form[name] === "string" ? form[name] as string : "";

/** `render` puts a page's content into the portal's document. */
export function passwordResetPages(services: Services, render: (content: ReactNode) => string) {
  const app = new Hono<AppEnv>();
  // Built with its security headers, so the middleware leaves the Referer policy as set here.
  const page = (_c: Context<AppEnv>, content: ReactNode, status: ContentfulStatusCode = 200) => {
    const response = secureResponse(render(content), status, [
      ["content-type", "text/html; charset=UTF-8"],
      ["cache-control", "no-store"],
      ["x-robots-tag", "noindex"],
    ]);
    response.headers.set("referrer-policy", "no-referrer");
    return response;
  };

  app.get("/forgot-password", (c) => page(c, <ForgotForm />));
  app.post("/forgot-password", limitBody(8), async (c) => {
    try {
      await requestReset(services, c, { email: field(await c.req.parseBody(), "email") });
    } catch (error) {
      const { message, status } = await refusal(error);
      return page(c, <ForgotForm message={message} />, status);
    }
    return page(
      c,
      <Card title="Check your inbox">
        <p role="status">{RESET_REQUESTED}</p>
        <p className="text-sm text-slate-600">The link works once, for 30 minutes.</p>
        <SignInLink />
      </Card>,
    );
  });

  const linkProblem = (c: Context<AppEnv>, message: string, status: ContentfulStatusCode) =>
    page(
      c,
      <Card title="Link not valid">
        <Problem message={message} />
        <p className="text-sm">
          <a href="/admin/forgot-password" className="font-medium text-indigo-700 underline">
            Ask for a new link
          </a>
        </p>
        <SignInLink />
      </Card>,
      status,
    );

  app.get("/reset-password", async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      await requireLiveLink(services, token);
    } catch (error) {
      const { message, status } = await refusal(error);
      return linkProblem(c, message, status);
    }
    return page(c, <ResetForm token={token} />);
  });
  app.post("/reset-password", limitBody(8), async (c) => {
    const form = await c.req.parseBody();
    const token = field(form, "token");
    const password = field(form, "password");
    if (password !== field(form, "repeat")) {
      return page(
        c,
        <ResetForm token={token} message="The two passwords are not the same." />,
        400,
      );
    }
    let done;
    try {
      done = await confirmReset(services, c, { token, password });
    } catch (error) {
      const { message, status } = await refusal(error);
      // The link itself no longer works: no form that could not succeed.
      return (await services.passwordResets.lookUp(token)).state === "live"
        ? page(c, <ResetForm token={token} message={message} />, status)
        : linkProblem(c, message, status);
    }
    return page(
      c,
      <Card title="Password changed">
        <p role="status">{done.message}</p>
        {done.twoFactor && <p className="text-sm text-slate-600">{done.twoFactor}</p>}
        <SignInLink text="Sign in" />
      </Card>,
    );
  });
  return app;
}
