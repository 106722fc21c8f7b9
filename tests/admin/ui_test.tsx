/** The small display rules of the admin screens, rendered to HTML. */
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { ConversionBadge, StatusBadge } from "../../client/admin/ui.tsx";
import { companyInitials } from "../../client/components/company-logo.tsx";
import { DaysChip } from "../../client/admin/components/job-details.tsx";
import { provideAdminSettings } from "../../client/admin/settings.ts";
import { StrengthMeter } from "../../client/admin/profile.tsx";
import { ADMIN_SETTINGS } from "../../kv/constants.ts";
// The screens are typed against the app's route tree, which the router module registers.
import type {} from "../../client/admin/router.tsx";

Deno.test("status badges read Active, Dump, Inactive; anything else reads Inactive", () => {
  const label = (status: string) =>
    renderToStaticMarkup(<StatusBadge status={status} />).replace(/<[^>]+>/g, "");
  assert.deepEqual(
    ["active", "dump", "inactive", "archived", ""].map(label),
    ["Active", "Dump", "Inactive", "Inactive", "Inactive"],
  );
});

Deno.test("conversion badges: green above 5, yellow above 2, red otherwise", () => {
  const colour = (rate: number) =>
    renderToStaticMarkup(<ConversionBadge rate={rate} />).match(/bg-(\w+)-100/)?.[1];
  assert.deepEqual(
    [5.01, 5, 2.01, 2, 0].map(colour),
    ["green", "yellow", "yellow", "red", "red"],
  );
  assert.match(renderToStaticMarkup(<ConversionBadge rate={7.333} />), />7\.33%</);
});

Deno.test("days in dump: yellow from 15, red from 25 with the days left", () => {
  provideAdminSettings(ADMIN_SETTINGS);
  const chip = (days: number) => {
    const html = renderToStaticMarkup(<DaysChip days={days} />);
    return [html.match(/bg-(\w+)-100/)?.[1], html.replace(/<[^>]+>/g, "")];
  };
  assert.deepEqual(chip(14), ["slate", "14 days"]);
  assert.deepEqual(chip(15), ["yellow", "15 days"]);
  assert.deepEqual(chip(24), ["yellow", "24 days"]);
  assert.deepEqual(chip(25), ["red", "25 days · 5d left"]);
  assert.deepEqual(chip(29), ["red", "29 days · 1d left"]);
  assert.deepEqual(chip(1), ["slate", "1 day"]);
});

Deno.test("companies without a logo show their first two letters, capitalised", () => {
  assert.equal(companyInitials("acme corp", 2), "AC");
  assert.equal(companyInitials("  x", 2), "X");
});

Deno.test("the strength meter calls no repeat or run strong, however long, as the server refuses them", () => {
  const rating = (password: string) => {
    const html = renderToStaticMarkup(<StrengthMeter password={password} />);
    return [
      Number(html.match(/aria-valuenow="(\d)"/)?.[1]),
      html.match(/aria-valuetext="([^"]+)"/)?.[1],
    ];
  };
  for (
    const password of [
      "a".repeat(20),
      " ".repeat(20),
      "abcabcabcabcabcabcabc",
      "abcdefghijklmnopqrstuvwxyz",
      "98765432109876543210",
    ]
  ) {
    assert.deepEqual(rating(password), [0, "Too easy to guess"], password);
  }
  assert.deepEqual(rating("abc"), [0, "Too short"]);
  assert.deepEqual(rating("velvet abcdef orbit lamp"), [4, "Strong"]);
  assert.deepEqual(rating("orbit-lamp"), [2, "Fair"]);
});
