/**
 * How a search's words and a visit's source are read for counting: the same term however it was
 * typed or composed, and the same source however its campaign tag was spelt in the URL.
 */
import assert from "node:assert/strict";
import { MAX_TERM_CHARS, searchTerm, visitSource } from "../../kv/analytics/sources.ts";

Deno.test("a search term is one term however it was typed, composed or padded", () => {
  assert.equal(searchTerm("  React \t  Developer "), "react developer");
  // "Café" typed with a combining accent and with the composed letter count as one term.
  assert.equal(searchTerm("Cafe\u0301 Manager"), "caf\u00e9 manager");
  assert.equal(searchTerm("CAF\u00c9 manager"), "caf\u00e9 manager");
  assert.equal(searchTerm("Ｒｅａｃｔ"), "ｒｅａｃｔ");
  assert.equal(searchTerm("   "), undefined);
  assert.equal(searchTerm(undefined), undefined);
  // Cut at the limit on whole code points: a character beyond the BMP is never split.
  const long = "a".repeat(MAX_TERM_CHARS - 1) + "😀😀";
  assert.equal(searchTerm(long), "a".repeat(MAX_TERM_CHARS - 1) + "😀");
  assert.equal(searchTerm("x".repeat(MAX_TERM_CHARS + 20)), "x".repeat(MAX_TERM_CHARS));
  // Nor a character of several code points: a family emoji, a letter with its marks.
  const family = "👨\u200d👩\u200d👧";
  assert.equal(searchTerm("a".repeat(MAX_TERM_CHARS - 2) + family), "a".repeat(MAX_TERM_CHARS - 2));
  assert.equal(searchTerm("b".repeat(MAX_TERM_CHARS - 6) + family), "b".repeat(94) + family);
  assert.equal(searchTerm("c".repeat(MAX_TERM_CHARS - 1) + "क्ष"), "c".repeat(MAX_TERM_CHARS - 1));
  // Controls and bidirectional overrides, which would make the report read otherwise, are gone;
  // the joiners Indian scripts write words with are kept.
  assert.equal(searchTerm("java\u202e repoleved\u0000"), "java repoleved");
  assert.equal(searchTerm("java\u0007developer"), "javadeveloper");
  assert.equal(searchTerm("क्\u200dष"), "क्\u200dष");
});

Deno.test("a visit's campaign tags are read however the URL spells them, and only from the URL", () => {
  const own = ["careeredge.example"];
  const source = (path: string, referer?: string) =>
    visitSource(new URL(path, "https://careeredge.example"), referer, own);
  assert.deepEqual(source("/jobs?keywords=react"), {
    group: "Direct / None",
    utmSource: undefined,
    utmCampaign: undefined,
  });
  assert.deepEqual(source("/jobs?keywords=react&utm_source=WhatsApp&utm_campaign=Spring"), {
    group: "WhatsApp",
    utmSource: "whatsapp",
    utmCampaign: "spring",
  });
  // A name spelt with a percent escape is the same name once decoded.
  assert.deepEqual(source("/jobs?utm_source=what%E2%80%AEsapp%00&utm_campaign=%1Bspring%0A"), {
    group: "WhatsApp",
    utmSource: "whatsapp",
    utmCampaign: "spring",
  });
  assert.deepEqual(source("/jobs?%75tm_source=whatsapp"), {
    group: "WhatsApp",
    utmSource: "whatsapp",
    utmCampaign: undefined,
  });
  assert.equal(source("/jobs?keywords=utm", "https://www.google.com/").group, "Google");
  assert.equal(source("/jobs", "https://careeredge.example/jobs").group, "This site");
  // A source no group names is the source as written, whether or not a referrer came with it; a
  // host names its group.
  assert.equal(source("/jobs?utm_source=Naukri").group, "naukri");
  assert.equal(source("/jobs?utm_source=ig").group, "Instagram");
  assert.equal(source("/jobs?utm_source=naukri", "https://t.co/x").group, "naukri");
  assert.equal(source("/jobs?utm_source=www.LinkedIn.com").group, "LinkedIn");
  assert.equal(source("/jobs?utm_source=naukri", "https://careeredge.example/").group, "This site");
  // Mail apps on Android send their package as the referrer.
  assert.equal(source("/jobs", "android-app://com.google.android.gm").group, "Newsletter / E-mail");
  assert.equal(
    source("/jobs", "android-app://com.google.android.googlequicksearchbox/").group,
    "Google",
  );
  // So do the apps of the other groups: a link opened from WhatsApp on a phone is WhatsApp.
  for (
    const [app, group] of [
      ["com.whatsapp", "WhatsApp"],
      ["com.whatsapp.w4b", "WhatsApp"],
      ["com.facebook.katana", "Facebook"],
      ["com.facebook.orca", "Facebook"],
      ["com.instagram.android", "Instagram"],
      ["com.twitter.android", "X (Twitter)"],
      ["com.reddit.frontpage", "Reddit"],
      ["org.telegram.messenger", "Telegram"],
      ["com.google.android.youtube", "YouTube"],
    ]
  ) assert.equal(source("/jobs", `android-app://${app}/`).group, group, app);
});
