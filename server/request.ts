/** Facts about the client of a request. */
import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import { BlockList, isIP } from "node:net";

/** What the app and every part of it (sign-in throttling, visitor counting) call the client. */
const CLIENT_ADDRESS = "clientAddress";

/**
 * Which connections are proxies whose `X-Forwarded-For` is believed: the addresses and CIDR ranges
 * of TRUSTED_PROXIES. Anyone can send that header, so from any other connection it is ignored.
 */
export function trustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** One address or CIDR range as TRUSTED_PROXIES accepts it. */
export function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split("/");
  const version = isIP(address);
  if (!version || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Addresses whose verdict is remembered: the proxies' and their clients', a few bytes each. */
export const REMEMBERED_ADDRESSES = 4096;
/** The longest address remembered: an IPv6 address written in full with an IPv4 tail. */
const LONGEST_ADDRESS = 45;

/**
 * Whether `proxies` holds an address, remembered per address: checking one parses it, a tenth of a
 * kept answer's time. The record is emptied when full and takes no address longer than an address
 * can be (an IPv6 zone, `fe80::1%...`, may be any length: such an address is checked every time),
 * so it stays within a few hundred kilobytes whatever the requests carry.
 */
export function trustCheck(proxies: BlockList): {
  trusts: (address: string) => boolean;
  readonly remembered: number;
} {
  const verdicts = new Map<string, boolean>();
  return {
    trusts(address) {
      let trusted = verdicts.get(address);
      if (trusted === undefined) {
        const version = isIP(address);
        trusted = version !== 0 && proxies.check(address, version === 6 ? "ipv6" : "ipv4");
        if (address.length > LONGEST_ADDRESS) return trusted;
        if (verdicts.size >= REMEMBERED_ADDRESSES) verdicts.clear();
        verdicts.set(address, trusted);
      }
      return trusted;
    },
    get remembered() {
      return verdicts.size;
    },
  };
}

/** The connection's own address. Under `app.request()` there is none unless the test passes one. */
function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Decides each request's client address once: the connection's, or, when that connection is a
 * trusted proxy, the nearest address in `X-Forwarded-For` that is not a trusted proxy itself
 * (entries further left were written by the client and prove nothing). On Deno Deploy the
 * platform's own proxy hands the client's address to the app as the connection's address.
 */
export function clientAddresses(proxies: BlockList): MiddlewareHandler {
  const { trusts } = trustCheck(proxies);
  return async (c, next) => {
    let address = socketAddress(c);
    if (trusts(address)) {
      const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim());
      for (const hop of hops.reverse()) {
        if (!isIP(hop)) break;
        address = hop;
        if (!trusts(hop)) break;
      }
    }
    c.set(CLIENT_ADDRESS, address);
    await next();
  };
}

/** The client's address as `clientAddresses` decided it (the connection's when it did not run). */
export function clientAddress(c: Context): string {
  return (c.get(CLIENT_ADDRESS) as string | undefined) ?? socketAddress(c);
}
