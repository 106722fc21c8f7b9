/**
 * Loaded before the admin app, as its own script. zod compiles object parsers with `new Function`
 * when it finds eval allowed, and finds out by trying as soon as the first object schema is built:
 * under our CSP (no 'unsafe-eval') the browser refuses and reports that try on every admin page.
 * zod reads its settings from this global when it loads, so parsers are plain code from the start;
 * set from inside the app it would come too late, after the bundle's shared chunk built schemas.
 */
Object.assign(globalThis, { __zod_globalConfig: { jitless: true } });
