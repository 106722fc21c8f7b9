/**
 * Security headers for every response, limited to those current browsers act on (the IE-era
 * X-XSS-Protection, X-Download-Options and X-Permitted-Cross-Domain-Policies are left out).
 *
 * Deno hands a response to its HTTP layer natively when its headers were given to the Response
 * constructor; setting a header afterwards (as Hono's secureHeaders does) makes it rebuild the
 * response, which slowed every cached page (the figures:
 * docs/decisions/012-responses-carry-their-headers-from-the-start.md). So responses are made by
 * `secureResponse` (or cloned from a `SecureAnswer`), and the middleware adds the headers only to
 * responses built any other way.
 */
import type { MiddlewareHandler } from "hono";
import { encodeHex } from "../kv/hex.ts";

/** The Content-Security-Policy with these script sources. */
function policy(scriptSrc: string): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    // Inline style attributes come from React's server render and the toast library's stylesheet.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: http: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** Scripts only from our own origin: no response but a streamed page runs inline script. */
const CONTENT_SECURITY_POLICY = policy("'self'");

export type HeaderList = [string, string][];

const SECURITY_HEADERS: HeaderList = [
  ["cross-origin-opener-policy", "same-origin"],
  ["cross-origin-resource-policy", "same-origin"],
  ["permissions-policy", "camera=(), microphone=(), geolocation=()"],
  ["referrer-policy", "strict-origin-when-cross-origin"],
  ["strict-transport-security", "max-age=15552000; includeSubDomains"],
  ["x-content-type-options", "nosniff"],
  ["x-frame-options", "DENY"],
];

const WITH_DEFAULT_POLICY: HeaderList = [
  ["content-security-policy", CONTENT_SECURITY_POLICY],
  ...SECURITY_HEADERS,
];

/** Responses made by `secureResponse` or a `SecureAnswer`, which the middleware leaves alone. */
const secured = new WeakSet<Response>();

/**
 * A response with every security header set at construction. `nonce` allows inline scripts that
 * carry it (React's streamed Suspense reveal).
 */
export function secureResponse(
  body: BodyInit | null,
  status: number,
  headers: HeaderList,
  nonce?: string,
): Response {
  const security = nonce === undefined ? WITH_DEFAULT_POLICY : [
    ["content-security-policy", policy(`'self' 'nonce-${nonce}'`)] as [string, string],
    ...SECURITY_HEADERS,
  ];
  const response = new Response(body, { status, headers: [...headers, ...security] });
  secured.add(response);
  return response;
}

/**
 * An answer given many times over (a cached page, a memoised API answer): its Response is built
 * once and each request gets a clone. A clone shares the body and skips what the constructor does
 * on every call (checking a dozen headers, copying the body), about a quarter of what a cached page
 * costs the main thread (docs/decisions/012-responses-carry-their-headers-from-the-start.md).
 */
export class SecureAnswer {
  readonly #template: Response;

  constructor(body: string | Uint8Array<ArrayBuffer>, status: number, headers: HeaderList) {
    this.#template = secureResponse(body, status, headers);
  }

  response(): Response {
    const response = this.#template.clone();
    secured.add(response);
    return response;
  }
}

/** A fresh CSP nonce: 128 random bits. */
export function newNonce(): string {
  return encodeHex(crypto.getRandomValues(new Uint8Array(16)));
}

export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  if (secured.has(c.res)) return;
  const headers = c.res.headers;
  for (const [name, value] of WITH_DEFAULT_POLICY) headers.set(name, value);
};
