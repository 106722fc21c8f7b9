/** The tokeniser and the keyword box's filter words, unit by unit. */
import assert from "node:assert/strict";
import {
  editDistance,
  fold,
  indexWords,
  typoBudget,
  wholeWords,
  words,
} from "../../kv/search/text.ts";
import { parseKeywords } from "../../kv/search/query.ts";
import { cityNames, locationGroups, nearCityNames } from "../../kv/search/places.ts";
import { phrasesIn, stem } from "../../kv/search/vocabulary.ts";
import { placesOf } from "../../kv/place.ts";
import { REMOTE_SPELLINGS } from "../../kv/job-fields.ts";
import { workModeOf } from "../../kv/jobs/derived.ts";

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
  assert.deepEqual([...indexWords("We build the best apps")], ["build", "best", "app"]);
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
    terms: [{ word: "python", raw: "python", known: true }],
    filters: [{ employmentTypes: ["Full-Time"] }],
    pieces: ["full-time", "python"],
  });
  for (const text of ["full time", "fulltime", "FULL-TIME"]) {
    assert.deepEqual(parseKeywords(text).filters, [{ employmentTypes: ["Full-Time"] }]);
  }
  assert.deepEqual(parseKeywords("part time").filters, [{ employmentTypes: ["Part-Time"] }]);
  assert.deepEqual(parseKeywords("2025 passout").filters, [{ experiences: ["2025 passout"] }]);
  assert.deepEqual(parseKeywords("remote").filters, [{ locations: ["remot"] }]);
  assert.deepEqual(parseKeywords("contract freelance").filters.length, 2);
  // Filter words joined by "or" are one filter a job meets by either.
  assert.deepEqual(parseKeywords("part time or full time").filters.map((f) => f.employmentTypes), [
    ["Part-Time", "Full-Time"],
  ]);
  assert.deepEqual(parseKeywords("remote or hybrid").filters.map((f) => f.locations), [
    ["remot", "hybrid"],
  ]);
  assert.equal(parseKeywords("senior or remote").filters.length, 2);
  assert.deepEqual(parseKeywords("time management").terms.map((term) => term.word), [
    "time",
    stem("management"),
  ]);
});

Deno.test("a misspelt city is the nearest city, never a word the vocabulary knows", () => {
  assert.deepEqual(nearCityNames("banglore"), cityNames("bangalore"));
  assert.deepEqual(nearCityNames("hydrabad"), cityNames("hyderabad"));
  assert.deepEqual(nearCityNames("mumbia"), cityNames("mumbai"));
  assert.deepEqual(nearCityNames("jaipru"), cityNames("jaipur"));
  // A typo keeps the first letter: `raipor` is Raipur, one edit away, and not Jaipur, two.
  assert.deepEqual(nearCityNames("raipor"), cityNames("raipur"));
  // A city no nearer than one edit more than a word may have is none: `saels` (a typo of sales) is
  // two from Salem, where a five-letter word may have one.
  assert.equal(nearCityNames("saels"), null);
  for (const word of ["pune", "python", "react", "12345", "kotlin", "developer"]) {
    assert.equal(nearCityNames(word), null, word);
  }
});

Deno.test("locations know the renamed cities and Delhi NCR", () => {
  assert.deepEqual(locationGroups("Bangalore"), [["bengaluru", "bangalor", "blr"]]);
  assert.deepEqual(locationGroups("bombay"), [["mumbai", "bombay"]]);
  assert.deepEqual(locationGroups("Delhi NCR")[0].includes("noida"), true);
  assert.deepEqual(locationGroups("Pune, Maharashtra"), [["pune", "poona"]]);
  assert.deepEqual(locationGroups("Bangalore, India"), locationGroups("bangalore"));
  assert.deepEqual(locationGroups("near me"), []);
  // The names a city goes by among its own people and on job boards.
  assert.deepEqual(locationGroups("kovai"), locationGroups("coimbatore"));
  assert.deepEqual(locationGroups("amdavad"), locationGroups("ahmedabad"));
  assert.deepEqual(locationGroups("hyd"), locationGroups("hyderabad"));
  // A number with no city names the place; beside a city the city is asked.
  assert.deepEqual(locationGroups("Sector 62"), [["sector"], ["62"]]);
  assert.deepEqual(locationGroups("Sector 62, Noida"), locationGroups("noida"));
  assert.deepEqual(locationGroups("Pune near me"), locationGroups("pune"));
  assert.deepEqual(locationGroups("Mumbai, Maharashtra, India"), locationGroups("mumbai"));
  assert.deepEqual(locationGroups("Tamil Nadu"), [["tamil"], ["nadu"]]);
  assert.deepEqual(locationGroups("Cochin"), locationGroups("kochi"));
  for (const [old, now] of [["Simla", "Shimla"], ["Trichur", "Thrissur"], ["Poona", "Pune"]]) {
    assert.deepEqual(locationGroups(old), locationGroups(now), old);
  }
  // A place within a city, however it is set apart, and a PIN code: the city.
  for (const text of ["Mumbai (Andheri)", "Mumbai - Andheri", "Andheri, Mumbai", "Mumbai 400053"]) {
    assert.deepEqual(locationGroups(text), locationGroups("mumbai"), text);
  }
  assert.deepEqual(locationGroups("chenai (T Nagar)"), locationGroups("chennai"));
  assert.deepEqual(locationGroups("Sector 62, Noida, UP"), locationGroups("noida"));
  assert.deepEqual(locationGroups("Bengaluru Urban"), locationGroups("bangalore"));
  // Without a comma too: the city.
  assert.deepEqual(locationGroups("Whitefield Bangalore"), locationGroups("bangalore"));
  assert.deepEqual(locationGroups("Noida Sector 63"), locationGroups("noida"));
  assert.deepEqual(locationGroups("Mumbai Suburban"), locationGroups("mumbai"));
  assert.deepEqual(locationGroups("Pan India"), locationGroups("india"));
  // A state's short form or old name is the state; beside a city it is left out.
  assert.deepEqual(locationGroups("Chennai, TN"), locationGroups("chennai"));
  assert.deepEqual(locationGroups("TN"), locationGroups("Tamil Nadu"));
  assert.deepEqual(locationGroups("Orissa"), locationGroups("Odisha"));
  // Without a city every part still counts: a place the table does not know is looked for.
  assert.deepEqual(locationGroups("Andheri"), [["andheri"]]);
  assert.deepEqual(locationGroups("Hybrid, Bangalore").length, 2);
  for (const spelling of REMOTE_SPELLINGS) {
    for (const remote of [spelling, spelling.toUpperCase(), spelling.replaceAll(" ", "-")]) {
      assert.deepEqual(locationGroups(remote), [["remot"]], remote);
      // The JobPosting data and the work mode say the same: a job located so is TELECOMMUTE.
      assert.deepEqual(placesOf(remote), [{ remote: true, country: "IN" }], remote);
      assert.equal(workModeOf(remote), "Remote", remote);
    }
  }
});

Deno.test("the stemmer joins word forms and leaves skills and short words whole", () => {
  const same = [
    ["engineer", "engineers", "engineering"],
    ["developer", "developers", "developing", "develop"],
    ["test", "tester", "testing", "tests"],
    ["nurse", "nursing", "nurses"],
    ["teacher", "teaching", "teachers"],
    ["programmer", "programming"],
    ["manager", "managers", "managing"],
    ["company", "companies"],
    ["development", "developer"],
    ["management", "manager", "managment"],
    ["recruitment", "recruiter", "recruiting"],
    ["deployment", "deploying", "deploys"],
    ["automation", "automated", "automate", "automating"],
    ["operations", "operator", "operating"],
    ["administration", "administrator"],
    ["organization", "organisation", "organize", "organizing"],
    ["implement", "implementing", "implements"],
  ];
  for (const forms of same) {
    assert.deepEqual(forms.map(stem), forms.map(() => stem(forms[0])), forms.join(", "));
  }
  for (
    const word of ["docker", "pandas", "kubernetes", "jenkins", "rails", "go", "ios", "string"]
  ) {
    assert.equal(stem(word), word);
  }
  assert.notEqual(stem("customer"), stem("custom"));
  assert.equal(stem("optimisation"), stem("optimization"));
  assert.equal(stem("analysing"), stem("analyzing"));
  assert.notEqual(stem("engine"), stem("engineer"));
  // A root too short to be a word, or a noun of no verb, stays whole.
  for (const [noun, other] of [["payment", "pay"], ["station", "state"], ["statement", "stats"]]) {
    assert.notEqual(stem(noun), stem(other), noun);
  }
  // A role named after a verb job texts use for everything else keeps its own word.
  const roles = [["driver", "drive"], ["driver", "driving"], ["worker", "work"], ["owner", "own"]];
  for (const [role, verb] of [...roles, ["trainer", "train"], ["helper", "help"]]) {
    assert.notEqual(stem(role), stem(verb), role);
  }
  assert.equal(stem("drivers"), stem("driver"));
});

Deno.test("the vocabulary reads spellings, joined or split, as one canonical form", () => {
  const canonical = (text: string) => phrasesIn(wholeWords(text)).map((p) => p.canonical.join(" "));
  assert.deepEqual(canonical("reactjs react.js react js React"), [
    "react",
    "react",
    "react",
    "react",
  ]);
  assert.deepEqual(canonical("Full Stack full-stack fullstack"), [
    "fullstack",
    "fullstack",
    "fullstack",
  ]);
  assert.deepEqual(canonical("front end, power bi, ms excel, google cloud"), [
    "frontend",
    "power bi",
    "excel",
    "gcp",
  ]);
  assert.deepEqual(canonical("artificial intelligence genai Sr. Jr."), [
    "ai",
    "ai",
    "senior",
    "junior",
  ]);
  assert.deepEqual(canonical("B.Tech, btech; MS SQL, sql server; data centre"), [
    "btech",
    "btech",
    "sql server",
    "sql server",
    "center",
  ]);
  assert.deepEqual(canonical("springboot spring boot dev ops"), [
    "springboot",
    "springboot",
    "devops",
  ]);
  // Tools and practices of the wider market, and the ways sales and support work is written.
  assert.deepEqual(
    canonical(
      "Corel Draw, Facebook Ads, object oriented programming, data structures, biz dev, lead gen, " +
        "chat process, solid works, MIS reporting",
    ),
    [
      "coreldraw",
      "meta ads",
      "oops",
      "dsa",
      "business development",
      "lead generation",
      "non voice",
      "solidworks",
      "mis",
    ],
  );
  // Titles of sales and care as Indian postings shorten or name them, and a subject's spellings.
  assert.deepEqual(canonical("S/4HANA, s4 hana, IBM DB2"), ["s4hana", "s4hana", "db2"]);
  assert.deepEqual(canonical("RM, KAM, ASM, Physiotherapy, Pharmacy, Maths, SDE-2"), [
    "relationship manager",
    "key account manager",
    "area sales manager",
    "physiotherapist",
    "pharmacist",
    "mathematics",
    "software engineer",
  ]);
});

Deno.test("short skill words stay whole: R&D is not R, Objective-C is not C", () => {
  assert.deepEqual(words("R&D"), ["r&d"]);
  assert.ok(!words("Objective-C").includes("c"));
  assert.ok(!words("go-to-market").includes("go"));
  assert.ok(indexWords("Golang").has("go"));
});

Deno.test("experience phrases, seniority, places and filler words are read, not searched", () => {
  const experiences = (text: string) => parseKeywords(text).filters.map((f) => f.experiences);
  assert.deepEqual(experiences("3 years"), [["2-3", "3+"]]);
  assert.deepEqual(experiences("4 yrs exp"), [["3+", "4+"]]);
  assert.deepEqual(experiences("3+ years"), [["2-3", "3+"]]);
  assert.deepEqual(experiences("5 years of experience"), [["3+", "4+", "5+"]]);
  // Months are the whole years in them; a fresher under a year fits the student options too.
  const fresher = ["0-1", "intern", "2025 passout", "2026 passout", "2027 passout"];
  assert.deepEqual(experiences("6 months experience"), [fresher]);
  assert.deepEqual(experiences("18 months"), [["0-1", "1-2"]]);
  assert.deepEqual(experiences("recent graduate"), [fresher]);
  // "min", "at least": words around the years that ask for nothing of their own.
  assert.deepEqual(parseKeywords("min 2 years").terms, []);
  assert.deepEqual(parseKeywords("at least 3 years java").terms.map((term) => term.word), [
    "java",
  ]);
  // A number with a plus standing alone is years too; a plus inside a word is not.
  assert.deepEqual(experiences("java 5+"), [["3+", "4+", "5+"]]);
  assert.deepEqual(parseKeywords("java 5+").terms.map((term) => term.word), ["java"]);
  assert.deepEqual(experiences("c++ developer"), []);
  assert.deepEqual(parseKeywords("c++ developer").terms.map((term) => term.word), [
    "c++",
    "develop",
  ]);
  assert.deepEqual(experiences("entry level"), [[
    "0-1",
    "intern",
    "2025 passout",
    "2026 passout",
    "2027 passout",
  ]]);
  const senior = parseKeywords("Sr. Java Developer");
  assert.deepEqual(senior.filters, [{ experiences: ["4+", "5+", "6+"], roleWords: ["senior"] }]);
  assert.deepEqual(senior.terms.map((term) => term.word), ["java", "develop"]);
  const jobs = parseKeywords("react developer jobs in bangalore");
  assert.deepEqual(jobs.terms.map((term) => term.word), ["react", "develop"]);
  assert.deepEqual(jobs.filters, [{ locations: ["bengaluru", "bangalor", "blr"] }]);
  // Who asks, and how, asks nothing of a job: every job near a seeker is every job.
  assert.deepEqual(parseKeywords("jobs near me openings").terms, []);
  // Hindi around the words asks nothing of its own: naukri (a job), chahiye (wanted), mein (in).
  assert.deepEqual(
    parseKeywords("pune mein naukri chahiye").filters,
    parseKeywords("pune").filters,
  );
  assert.deepEqual(parseKeywords("pune mein naukri chahiye").terms, []);
  // and the words joining them: ki, ka, ke (of), liye (for), wali (one that).
  assert.deepEqual(
    parseKeywords("developer ki naukri").terms.map((term) => term.word),
    ["develop"],
  );
  assert.deepEqual(
    parseKeywords("fresher ke liye sales wali job").terms.map((term) => term.word),
    ["sale"],
  );
  assert.deepEqual(parseKeywords("any it job in kochi").terms, []);
  // A version joined on a word the vocabulary knows whole is no version: DB2 is not db.
  assert.deepEqual(parseKeywords("db2").terms.map((term) => term.word), ["db2"]);
  assert.deepEqual(
    parseKeywords("I am looking for a remote work, need python job").terms.map((t) => t.word),
    ["python"],
  );
  // How much is asked, around years or pay, asks nothing of the text.
  assert.deepEqual(experiences("more than 5 years"), experiences("5 years"));
  assert.deepEqual(parseKeywords("more than 5 years").terms, []);
  assert.deepEqual(parseKeywords("over 3 years experience").terms, []);
  const pay = parseKeywords("salary above 10 lpa");
  assert.deepEqual([pay.terms, pay.payMin], [[], 1_000_000]);
  // A long filter word misspelt is the filter word; a word of its own near one is a word.
  assert.deepEqual(parseKeywords("internshp").filters, parseKeywords("internship").filters);
  assert.deepEqual(parseKeywords("freelancr").filters, parseKeywords("freelance").filters);
  assert.deepEqual(parseKeywords("contact centre").filters, []);
  assert.deepEqual(parseKeywords("fresherr").filters, parseKeywords("freshers").filters);
  // LinkedIn's Mid-Senior level is an experience, from the middle up.
  assert.deepEqual(experiences("Mid-Senior level"), [["2-3", "3+", "4+", "5+", "6+"]]);
  assert.deepEqual(parseKeywords("mid senior java").terms.map((term) => term.word), ["java"]);
  // Years and months in words, alone or in a range.
  assert.deepEqual(experiences("one year"), experiences("1 year"));
  assert.deepEqual(experiences("two to three years of experience"), experiences("2 to 3 years"));
  assert.deepEqual(experiences("Five+ yrs"), experiences("5+ yrs"));
  assert.deepEqual(experiences("six months"), [fresher]);
  assert.deepEqual(parseKeywords("one developer").terms.map((term) => term.word), [
    "one",
    "develop",
  ]);
});

Deno.test("a grade or version after a role or skill asks nothing more: sde 2, sde-ii, java 17", () => {
  const words = (text: string) => parseKeywords(text).terms.map((term) => term.word);
  for (const text of ["sde1", "SDE-1", "sde 2", "SDE II", "sde-iii", "Software Engineer 2"]) {
    assert.deepEqual(words(text), words("software engineer"), text);
  }
  assert.deepEqual(words("engineer ii"), ["engineer"]);
  assert.deepEqual(words("java 17 spring"), ["java", "spring"]);
  assert.deepEqual(words("angular2"), words("angular"));
  // The whole is a word of its own, a numeral of letters joins only with its hyphen, and a number
  // before the word is no grade.
  assert.deepEqual(words("web3"), words("blockchain"));
  assert.deepEqual(words("ec2"), ["ec2"]);
  assert.deepEqual(words("taxi"), ["taxi"]);
  assert.deepEqual(words("2 wheeler"), ["2", "wheel"]);
  // The admin's search reads every word as written.
  assert.deepEqual(parseKeywords("sde 2", false).terms.map((term) => term.word), ["sde", "2"]);
  // After a word the vocabulary does not know, a number is asked: sector 62, phase 2.
  assert.deepEqual(
    parseKeywords("sector 62 noida").terms.map((term) => term.word),
    ["sector", "62"],
  );
});

Deno.test("a pay phrase asks the same floor wherever its words sit, and leaves no word to find", () => {
  const read = (text: string) => {
    const { terms, filters, payMin } = parseKeywords(text);
    return { terms: terms.map((term) => term.word), filters, payMin };
  };
  const asks = (payMin: number, texts: string[]) => {
    for (const text of texts) {
      assert.deepEqual(read(text), { terms: [], filters: [], payMin }, text);
    }
  };
  // A month's pay is asked as twelve of it; a figure in thousands is pay beside a pay word, a
  // period or a floor asked (`4k video`, `10k steps` are no pay).
  asks(600_000, [
    "salary above 50k",
    "above 50k salary",
    "salary 50k",
    "salary 50k+",
    "min 50k",
    "50k/month",
    "50,000 per month",
    "₹50,000 pm",
    "salary: 50k",
    "monthly salary 50000",
    "50k or more",
  ]);
  asks(180_000, ["salary above 15000", "15000 salary", "stipend 15000", "15k salary"]);
  asks(800_000, [
    "at least 8 lpa",
    "8 lpa+",
    "more than 8 lakh",
    "8 lakhs per annum",
    "8 lakh per year",
    "8 lakh p.a.",
    "expected salary 8 lpa",
    "8 lpa",
    "8L",
    "8 lpa and above",
  ]);
  asks(1_200_000, ["12 LPA", "ctc 12 lakhs", "100000 per month", "₹1,00,000 per month"]);
  asks(12_000_000, ["1.2 crore", "1.2 cr"]);
  asks(10_000_000, ["1 cr"]);
  // A lakh a month is twelve lakhs a year, in any spelling of either.
  asks(1_200_000, ["1 lakh per month", "1L per month", "1 lakh/month", "1 lac monthly"]);
  asks(1_800_000, ["1.5 lakh per month", "1.5 l pm"]);
  asks(2_400_000, ["2 lakhs monthly", "2 lakhs a month salary"]);
  assert.deepEqual(read("developer 1 lakh per month"), {
    terms: ["develop"],
    filters: [],
    payMin: 1_200_000,
  });
  // A range asks its low end, its unit written once or twice.
  asks(800_000, ["8-12 lpa", "8 to 12 lpa", "8 lpa to 12 lpa", "8 lpa - 12 lpa"]);
  asks(800_000, ["between 8 and 12 lpa", "salary range 8-12 lakhs"]);
  asks(1_500_000, ["15 lpa to 20 lpa"]);
  asks(120_000, ["10-15k per month"]);
  // Pay beside other words: the years stay experience, the words stay words.
  assert.deepEqual(read("salary 15000 and 2 years"), {
    ...read("2 years"),
    payMin: 180_000,
  });
  assert.deepEqual(read("8 lpa and 2 years"), { ...read("2 years"), payMin: 800_000 });
  assert.deepEqual(read("java 17 salary 50000"), { terms: ["java"], filters: [], payMin: 600_000 });
  // A bare figure is no pay (a batch, a version, a PIN code), nor is a time of day.
  assert.equal(read("java 8").payMin, undefined);
  assert.equal(read("560001").payMin, undefined);
  assert.equal(read("25000").payMin, undefined);
  assert.equal(read("3 pm").payMin, undefined);
  assert.equal(read("2025 passout").payMin, undefined);
  assert.equal(read("above 5 years").payMin, undefined);
  // Nor is a figure in thousands alone: 4K video, 10k steps, 100k followers, a pay it might be.
  for (const text of ["4k video editor", "10k steps", "100k followers", "b2b sales 30k", "50k"]) {
    assert.equal(read(text).payMin, undefined, text);
    assert.ok(read(text).terms.some((term) => /^\d+k$/.test(term)), text);
  }
  // Thousands are a month's pay whatever the figure: the floor never falls as it grows.
  assert.deepEqual(
    ["salary 90k", "salary 100k", "salary 150k"].map((text) => read(text).payMin),
    [1_080_000, 1_200_000, 1_800_000],
  );
  // A pay at most asks no floor, and as words it would find nothing.
  for (const text of ["upto 50k", "salary below 5 lpa", "not more than 8 lpa", "8 lpa or less"]) {
    assert.deepEqual(read(text), { terms: [], filters: [], payMin: undefined }, text);
  }
});

Deno.test("a pasted title keeps its first meaningful words", () => {
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
  assert.equal(parseKeywords(long).terms.length, 30);
});
