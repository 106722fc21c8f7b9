/**
 * Security headers for every response. Scripts only from our own origin, or inline with this
 * response's nonce (React's streamed Suspense reveal on public pages; `c.get("secureHeadersNonce")`).
 */
import { NONCE, secureHeaders } from "hono/secure-headers";

export const securityHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", NONCE],
    // Inline style attributes come from React's server render and the toast library's stylesheet.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "https:", "http:", "data:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: "strict-origin-when-cross-origin",
  permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
});
