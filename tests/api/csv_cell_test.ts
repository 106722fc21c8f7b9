/** One CSV cell: quoted per RFC 4180, and never read by a spreadsheet as a formula. */
import assert from "node:assert/strict";
import { csvCell } from "../../routes/api/analytics.ts";

Deno.test("text a spreadsheet would run as a formula starts with an apostrophe", () => {
  assert.equal(csvCell("=SUM(A1:A2)"), "'=SUM(A1:A2)");
  assert.equal(csvCell("+1"), "'+1");
  assert.equal(csvCell("-1"), "'-1");
  assert.equal(csvCell("@cmd"), "'@cmd");
  assert.equal(csvCell("\tTab"), "'\tTab");
  assert.equal(csvCell("\rReturn"), `"'\rReturn"`);
  assert.equal(csvCell("a=b"), "a=b");
});

Deno.test("quotes, commas and line breaks are quoted, quotes doubled; numbers stay numbers", () => {
  assert.equal(csvCell("Acme, Inc."), `"Acme, Inc."`);
  assert.equal(csvCell('Say "hi"'), `"Say ""hi"""`);
  assert.equal(csvCell("two\nlines"), `"two\nlines"`);
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell(-5), "-5");
  assert.equal(csvCell(12.5), "12.5");
  assert.equal(csvCell("plain"), "plain");
});
