/**
 * The admin app's one API client: `/api` base, JSON, a 10-second time-out, the
 * Bearer token from browser storage on every call. Any 401 clears the token and sends the browser to
 * the sign-in page, through the handler main.tsx installs.
 */
import { HTTP_TIMEOUT_MS } from "../../kv/constants.ts";

export const TOKEN_STORAGE_KEY = "careeredge.adminToken";

/** An error answer of the API: its status, its `message`, and the rest of its body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The server answered with an error, or did not answer within the time-out. */
export function isDefinitive(error: unknown): boolean {
  return error instanceof ApiError && (error.status > 0 || error.body.timedOut === true);
}

/** The server's message when it sent one, else the screen's own fallback text. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status > 0 && error.message ? error.message : fallback;
}

const listeners = new Set<() => void>();

/** The stored session token; components subscribe through `useToken` in session.ts. */
export const tokenStore = {
  get(): string | null {
    try {
      return localStorage.getItem(TOKEN_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  set(token: string | null) {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
    for (const listener of listeners) listener();
  },
  /**
   * Also told when another tab signs in or out: the browser reports that tab's storage change here
   * (a `null` key means storage was cleared).
   */
  subscribe(listener: () => void) {
    const fromOtherTab = (event: StorageEvent) => {
      if (event.key === TOKEN_STORAGE_KEY || event.key === null) listener();
    };
    listeners.add(listener);
    addEventListener("storage", fromOtherTab);
    return () => {
      listeners.delete(listener);
      removeEventListener("storage", fromOtherTab);
    };
  },
};

let onUnauthorized = () => tokenStore.set(null);

/** main.tsx installs what a 401 does beyond dropping the token (clear caches, go to sign-in). */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

let onForbidden = () => {};

/**
 * main.tsx installs what a 403 does: the account's permissions may have changed since the portal
 * read them, so it reads them again and the menus and screens follow.
 */
export function setForbiddenHandler(handler: () => void) {
  onForbidden = handler;
}

interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** A body sent as it is, of this content type (a CSV upload). */
  text?: { body: string; type: string };
  /** The sign-in call answers 401 for a wrong password: that is a message, not a lost session. */
  ignoreUnauthorized?: boolean;
}

async function send(method: string, path: string, options: RequestOptions = {}) {
  const url = new URL(`/api${path}`, location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
  }
  const headers = new Headers({ accept: "application/json" });
  const token = tokenStore.get();
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  if (options.text) headers.set("content-type", options.text.type);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.text?.body ??
        (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
  } catch (error) {
    // Status 0: no answer at all, so screens show their own fallback text. A time-out is told apart
    // from a request the browser dropped (offline, or the page being left mid-request).
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    throw new ApiError(0, timedOut ? "Request timed out" : "Network error", { timedOut });
  }
  if (response.ok) return response;
  const body = await response.json().catch(() => ({})) as Record<string, unknown>;
  if (response.status === 401 && !options.ignoreUnauthorized) onUnauthorized();
  if (response.status === 403) onForbidden();
  throw new ApiError(
    response.status,
    typeof body.message === "string" ? body.message : "",
    body,
  );
}

export const api = {
  async get<T>(path: string, query?: RequestOptions["query"]): Promise<T> {
    return await (await send("GET", path, { query })).json();
  },
  async post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return await (await send("POST", path, { ...options, body })).json();
  },
  async postText<T>(path: string, body: string, type: string): Promise<T> {
    return await (await send("POST", path, { text: { body, type } })).json();
  },
  async put<T>(path: string, body?: unknown): Promise<T> {
    return await (await send("PUT", path, { body })).json();
  },
  async delete<T>(path: string, body?: unknown): Promise<T> {
    return await (await send("DELETE", path, { body })).json();
  },
  /** A download (the analytics export): the body as a blob. */
  async blob(path: string, query?: RequestOptions["query"]): Promise<Blob> {
    return await (await send("GET", path, { query })).blob();
  },
};
