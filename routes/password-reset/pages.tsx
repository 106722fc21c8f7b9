/**
 * The pages of a forgotten password, rendered by the server and working without any script:
 * `/admin/forgot-password` asks for the e-mail, `/admin/reset-password?token=` sets the new
 * password. Both are noindex and never cached, and the link's page sends no Referer, so its token
 * stays on the page.
 */
import type { ReactNode } from "react";
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv, Services } from "../../server/context.ts";
import { limitBody } from "../../server/validate.ts";
import { MIN_ADMIN_PASSWORD, RESET_LINK_MINUTES } from "../../kv/constants.ts";
import { Card, field, linkPage, Problem, refusal, SignInLink } from "./parts.tsx";
import { confirmReset, requestReset, requireLiveLink, RESET_REQUESTED } from "./flow.ts";

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
        {`At least ${MIN_ADMIN_PASSWORD} characters, not a common password and without your name ` +
          "or e-mail address. A passphrase of a few unrelated words is easy to remember and hard " +
          "to guess."}
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

/** `render` puts a page's content into the portal's document. */
export function passwordResetPages(services: Services, render: (content: ReactNode) => string) {
  const app = new Hono<AppEnv>();
  const page = linkPage(render);

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
        <p className="text-sm text-slate-600">
          {`The link works once, for ${RESET_LINK_MINUTES} minutes.`}
        </p>
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
