/**
 * The hiring pages the test jobs link to (https://careers.acme.example/...), for the browser
 * tests: a server of the test's own that answers every path with a stub page, which the Chromium
 * of `launchBrowser` reaches for that name. Routing the pages in Playwright instead misses a tab
 * opened with `noopener` (Apply Now's): the headless shell sends its first request before
 * Playwright has attached to the tab, so it left for the real network and the tab showed an error
 * page.
 */

export const HIRING_HOST = "careers.acme.example";

/** A self-signed certificate for HIRING_HOST, made for these tests only (the browser takes it). */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBtTCCAVygAwIBAgIUfsdlrkHRpXwofYOQPYneK9lLe6gwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUY2FyZWVycy5hY21lLmV4YW1wbGUwIBcNMjYxMTI2MTgwMTUz
WhgPMjEyNjExMDIxODAxNTNaMB8xHTAbBgNVBAMMFGNhcmVlcnMuYWNtZS5leGFt
cGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEx0eos+aPBf8B/kn4hJecSOW9
PNCKOZLCu8pCo7+oR/03YmGwTm17cFyAMGdmHTlkf2bJusp1x+E2c6blCkRPpqN0
MHIwHQYDVR0OBBYEFIkNH5NszSPHKmQdFRHprOs+qlsLMB8GA1UdIwQYMBaAFIkN
H5NszSPHKmQdFRHprOs+qlsLMA8GA1UdEwEB/wQFMAMBAf8wHwYDVR0RBBgwFoIU
Y2FyZWVycy5hY21lLmV4YW1wbGUwCgYIKoZIzj0EAwIDRwAwRAIgThX/HfnqZIkm
KMutfdt5cMg4GfCIwBGXbD7VK2v0RkICIFrF5QYudo1QBEWw/xkgOT4H0/V1p5Yy
2yENcWSwpiIN
-----END CERTIFICATE-----`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiSlLWyj6+oU/B2OZ
yJDyPoNVwDuYC56kbSCxM5w2ZeehRANCAATHR6iz5o8F/wH+SfiEl5xI5b080Io5
ksK7ykKjv6hH/TdiYbBObXtwXIAwZ2YdOWR/Zsm6ynXH4TZzpuUKRE+m
-----END PRIVATE KEY-----`;

/** Serves the stub hiring pages over HTTPS on a free loopback port. */
export function serveHiringSite(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: CERTIFICATE, key: KEY, onListen() {} },
    () =>
      new Response("<title>Careers</title><h1>Careers</h1>", {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
  );
}

/** Chromium's flags that send HIRING_HOST's HTTPS to `site` and accept its certificate. */
export const hiringSiteFlags = (site: Deno.HttpServer<Deno.NetAddr>): string[] => [
  `--host-resolver-rules=MAP ${HIRING_HOST}:443 127.0.0.1:${site.addr.port}`,
  "--ignore-certificate-errors",
];
