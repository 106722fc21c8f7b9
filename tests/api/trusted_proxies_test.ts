/** The trusted proxies' verdicts, remembered per address: right whatever is sent, and bounded. */
import assert from "node:assert/strict";
import { REMEMBERED_ADDRESSES, trustCheck, trustedProxies } from "../../server/request.ts";

const proxies = () => trustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);

Deno.test("a flood of distinct addresses keeps at most the record's size, and every verdict right", () => {
  const check = trustCheck(proxies());
  for (let i = 0; i < 3 * REMEMBERED_ADDRESSES; i++) {
    const inside = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const outside = `198.18.${(i >> 8) & 255}.${i & 255}`;
    const inside6 = `fd00::${i.toString(16)}`;
    const outside6 = `2001:db8::${i.toString(16)}`;
    assert.equal(check.trusts(inside), true, inside);
    assert.equal(check.trusts(outside), false, outside);
    assert.equal(check.trusts(inside6), true, inside6);
    assert.equal(check.trusts(outside6), false, outside6);
    assert.ok(check.remembered <= REMEMBERED_ADDRESSES, `${check.remembered} after ${i}`);
  }
  // Asked again after the record was emptied: the same verdicts.
  assert.equal(check.trusts("127.0.0.1"), true);
  assert.equal(check.trusts("10.255.255.255"), true);
  assert.equal(check.trusts("11.0.0.1"), false);
});

Deno.test("an address of any length is judged, and one longer than an address can be is not kept", () => {
  const check = trustCheck(proxies());
  const before = check.remembered;
  // Node's isIP takes an IPv6 zone of any length: a forwarded hop could carry 60 KB of it.
  const zoned = `fd00::1%${"z".repeat(60_000)}`;
  const judged = check.trusts(zoned);
  assert.equal(check.trusts(zoned), judged);
  assert.equal(check.remembered, before);
  for (const text of ["", "not an address", "1.2.3", "10.0.0.1.5", "😀", "x".repeat(100_000)]) {
    assert.equal(check.trusts(text), false, text.slice(0, 20));
  }
  assert.ok(check.remembered <= 5, `${check.remembered} remembered`);
  // The longest real address is kept like any other.
  const longest = "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255";
  assert.equal(longest.length, 45);
  assert.equal(check.trusts(longest), false);
  assert.ok(check.remembered <= 6);
});
