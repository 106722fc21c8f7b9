/** The tokeniser and the keyword box's filter words, unit by unit. */
import assert from "node:assert/strict";
import { editDistance, fold, indexWords, typoBudget, words } from "../../kv/search/text.ts";
import { locationGroups, parseKeywords } from "../../kv/search/query.ts";

Deno.test("words split on punctuation and fold case and accents", () => {
  assert.deepEqual(words("Python, Go; (Rust)! end."), ["python", "go", "rust", "end"]);
  assert.deepEqual(words("Zürich São Paulo"), ["zurich", "sao", "paulo"]);
  assert.equal(fold("ÉCOLE"), "ecole");
});

Deno.test("skill names with symbols stay whole, with their parts", () => {
  assert.deepEqual(words("C++ and C#"), ["c++", "and", "c#"]);
  assert.deepEqual(words(".NET"), [".net"]);
  assert.deepEqual(words("Node.js"), ["node.js", "node", "js"]);
  assert.deepEqual(words("ASP.NET Core"), ["asp.net", "asp", "net", "core"]);
  assert.deepEqual(words("C/C++"), ["c", "c++"]);
});

Deno.test("hyphenated words are their parts and the parts joined", () => {
  assert.deepEqual(words("full-time"), ["fulltime", "full", "time"]);
  assert.deepEqual(words("- a list item"), ["a", "list", "item"]);
});

Deno.test("descriptions leave out stop words; other fields keep them", () => {
  assert.deepEqual([...indexWords("We build the best apps")], ["build", "best", "apps"]);
  assert.deepEqual([...indexWords("Head of IT", true)], ["head", "of", "it"]);
});

Deno.test("typos: none to four letters, one from five, two from nine, none in numbers", () => {
  assert.equal(typoBudget("java"), 0);
  assert.equal(typoBudget("react"), 1);
  assert.equal(typoBudget("kubernetes"), 2);
  assert.equal(typoBudget("12345"), 0);
  assert.equal(editDistance("pyhton", "python"), 1);
  assert.equal(editDistance("enginer", "engineer"), 1);
  assert.equal(editDistance("kuberentes", "kubernetes"), 1);
  assert.equal(editDistance("java", "javascript"), 6);
});

Deno.test("filter words become filters, the rest words to find", () => {
  assert.deepEqual(parseKeywords("Full-time python"), {
    words: ["python"],
    filters: [{ employmentTypes: ["Full-Time"] }],
  });
  for (const text of ["full time", "fulltime", "FULL-TIME"]) {
    assert.deepEqual(parseKeywords(text).filters, [{ employmentTypes: ["Full-Time"] }]);
  }
  assert.deepEqual(parseKeywords("part time").filters, [{ employmentTypes: ["Part-Time"] }]);
  assert.deepEqual(parseKeywords("2025 passout").filters, [{ experiences: ["2025 passout"] }]);
  assert.deepEqual(parseKeywords("remote").filters, [{ locations: ["remote"] }]);
  assert.deepEqual(parseKeywords("contract freelance").filters.length, 2);
  assert.deepEqual(parseKeywords("time management").words, ["time", "management"]);
});

Deno.test("locations know the renamed cities and Delhi NCR", () => {
  assert.deepEqual(locationGroups("Bangalore"), [["bengaluru", "bangalore"]]);
  assert.deepEqual(locationGroups("bombay"), [["mumbai", "bombay"]]);
  assert.deepEqual(locationGroups("Delhi NCR")[0].includes("noida"), true);
  assert.deepEqual(locationGroups("Pune, Maharashtra"), [["pune"], ["maharashtra"]]);
});
