/**
 * The sign-in page's own entry, a few hundred bytes: the form is the server's HTML and works with
 * the browser's own fields from the first paint. React and the form's code (login-app.tsx) load when
 * the visitor first reaches for the form, so opening the page costs a phone no script work at all;
 * a submit that comes before they are ready waits for them instead of leaving the page.
 */
import { tokenStore } from "./api.ts";

// Signed in already: the portal checks the session and comes back here if it has ended.
if (tokenStore.get()) location.replace("/admin/dashboard");
else {
  const form = document.querySelector<HTMLFormElement>("#admin-root form")!;
  let ready = false;
  let loading: Promise<void> | null = null;
  const start = () =>
    loading ??= import("./login-app.tsx").then(async (app) => {
      await app.hydrateLoginPage();
      ready = true;
    });
  for (const event of ["focusin", "pointerdown", "touchstart", "keydown"]) {
    form.addEventListener(event, start, { once: true, passive: true });
  }
  form.addEventListener("submit", (event) => {
    if (ready) return;
    event.preventDefault();
    void start().then(() => form.requestSubmit());
  });
}
