/**
 * What the server-rendered account pages share (a forgotten password, a browser confirmed by mail):
 * the frame, the refusal box and the answer, noindex, never cached and sending no Referer, so a
 * link's token stays on its page.
 */
import type { ReactNode } from "react";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../../server/context.ts";
import { secureResponse } from "../../server/security.ts";

/** The message of a refusal thrown with `fail`; anything else is thrown on. */
export async function refusal(
  error: unknown,
): Promise<{ message: string; status: ContentfulStatusCode }> {
  if (!(error instanceof HTTPException)) throw error;
  const { message } = await error.getResponse().json() as { message: string };
  return { message, status: error.status as ContentfulStatusCode };
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
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

export const SignInLink = ({ text = "Back to sign in" }: { text?: string }) => (
  <p className="text-sm">
    <a href="/admin/login" className="font-medium text-indigo-700 underline">{text}</a>
  </p>
);

export function Problem({ message }: { message?: string }) {
  return message
    ? <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">{message}</p>
    : null;
}

/** A text field of a posted form, or empty. */
export const field = (form: Record<string, unknown>, name: string) =>
  typeof form[name] === "string" ? form[name] as string : "";

/** Answers a page's content; `render` puts it into the portal's document. */
export function linkPage(render: (content: ReactNode) => string) {
  // Built with its security headers, so the middleware leaves the Referer policy as set here.
  return (_c: Context<AppEnv>, content: ReactNode, status: ContentfulStatusCode = 200) => {
    const response = secureResponse(render(content), status, [
      ["content-type", "text/html; charset=UTF-8"],
      ["cache-control", "no-store"],
      ["x-robots-tag", "noindex"],
    ]);
    response.headers.set("referrer-policy", "no-referrer");
    return response;
  };
}
