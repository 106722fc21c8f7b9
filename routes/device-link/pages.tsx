/**
 * `/admin/confirm-browser?token=`: the page a mailed link opens. It asks before it spends the link
 * (a mail scanner that fetches links spends nothing), then makes this browser one the account knows.
 * It needs no script.
 */
import type { ReactNode } from "react";
import { Hono } from "hono";
import type { AppEnv, Services } from "../../server/context.ts";
import { limitBody } from "../../server/validate.ts";
import { Card, field, linkPage, Problem, refusal, SignInLink } from "../password-reset/parts.tsx";
import { confirmDevice, LINK_DONE, LINK_UNKNOWN } from "./flow.ts";

export function deviceLinkPages(services: Services, render: (content: ReactNode) => string) {
  const app = new Hono<AppEnv>();
  const page = linkPage(render);
  const notValid = (message: string) => (
    <Card title="Link not valid">
      <Problem message={message} />
      <SignInLink />
    </Card>
  );

  app.get("/confirm-browser", async (c) => {
    const token = c.req.query("token") ?? "";
    if (!(await services.deviceLinks.isLive(token))) return page(c, notValid(LINK_UNKNOWN), 400);
    return page(
      c,
      <Card title="Confirm this browser">
        <p className="text-sm text-slate-600">
          Confirm this browser to sign in from it while failed sign-ins elsewhere hold your account
          back. You still sign in with your password.
        </p>
        <form method="post" action="/admin/confirm-browser">
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn-primary w-full">Confirm this browser</button>
        </form>
      </Card>,
    );
  });

  app.post("/confirm-browser", limitBody(8), async (c) => {
    let cookie;
    try {
      cookie = await confirmDevice(services, c, field(await c.req.parseBody(), "token"));
    } catch (error) {
      const { message, status } = await refusal(error);
      return page(c, notValid(message), status);
    }
    const done = page(
      c,
      <Card title="Browser confirmed">
        <p role="status">{LINK_DONE}</p>
        <SignInLink text="Sign in" />
      </Card>,
    );
    done.headers.append("set-cookie", cookie);
    return done;
  });
  return app;
}
