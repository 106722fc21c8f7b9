/**
 * The relevance suite in a seeker's own words, over the first job set and the jobs written the
 * many ways employers write them: spellings and synonyms, word forms, experience phrases, places
 * typed anywhere, remote under all its names, short skill words, partial matches and long queries.
 * Each query names the jobs it must find (exactly, unless `some`) and the one ranked first.
 */
import assert from "node:assert/strict";
import type { Case } from "./cases.ts";
import { IT_CATEGORIES } from "../../kv/job-fields.ts";
import { relevanceSuite } from "./cases.ts";
import { ALL_FIXTURE_JOBS, fixtureCatalog, idsWhere, jobOf, type Spec } from "./fixtures.ts";

const CASES: Record<string, Case> = {};

/** A keyword search finding exactly `finds`, `first` ranked first. */
function ask(keywords: string, finds: string[], first = finds[0], location?: string): void {
  const name = `${keywords || "(no keywords)"}${location ? ` in [${location}]` : ""}`;
  assert.ok(!CASES[name], `${name} is asked once`);
  CASES[name] = {
    query: { keywords: keywords || undefined, location },
    finds,
    exactly: true,
    first,
  };
}

/** A search that must find at least `finds`, `first` first, and none of `not`. */
function some(keywords: string, finds: string[], first: string, not: string[] = []): void {
  assert.ok(!CASES[keywords], `${keywords} is asked once`);
  CASES[keywords] = { query: { keywords }, finds, first, not };
}

const all = (test: Parameters<typeof idsWhere>[0]) => idsWhere(test, ALL_FIXTURE_JOBS);
const withExperience = (...levels: string[]) => all((job) => levels.includes(job.experience));
const FRESHERS = withExperience("0-1", "intern", "2025 passout", "2026 passout", "2027 passout");
const REMOTE = ["telecaller", "wfh-support", "frontend", "data-scientist"];
const BANGALORE = [
  "sql-dba",
  "backend-bangalore",
  "react-dev",
  "swe-intern",
  "python-eng",
  "go-dev",
];
const REACT = ["react-dev", "fullstack", "frontend", "js-dev"];

/** A job of `role` in Pune at Acme, full time, as the ranking tests below add them. */
const roleSpec = (id: string, role: string, more: Partial<Spec> = {}): Spec => ({
  id,
  role,
  company: "Acme",
  location: "Pune, Maharashtra",
  type: "Full-Time",
  experience: "1-2",
  description: "Join our team.",
  ...more,
});

/**
 * The suite's jobs (those `base` keeps) with `specs` added as the newest, and the jobs a query
 * finds there, best first.
 */
function searchWith(specs: Spec[], base = ALL_FIXTURE_JOBS) {
  const added = specs.map((spec, i) => jobOf(spec, ALL_FIXTURE_JOBS.length + i));
  const catalog = fixtureCatalog([...base, ...added]);
  return (keywords: string) => catalog.page({ page: 1, limit: 100, keywords });
}

// Spellings, abbreviations and synonyms.
ask("reactjs", REACT);
ask("react.js", REACT);
ask("react js", REACT);
ask("React JS developer", REACT);
ask("fullstack", ["fullstack-eng", "fullstack"]);
ask("full stack", ["fullstack-eng", "fullstack"]);
// A role word beside another word stands for the others in a role, ranked below.
ask("full-stack developer", ["fullstack", "fullstack-eng"]);
ask("full stack engineer kochi", ["fullstack-eng"]);
ask("front end", ["jr-frontend", "frontend"]);
ask("front-end", ["jr-frontend", "frontend"]);
ask("frontend developer jobs", ["jr-frontend", "frontend"]);
ask("back end", ["backend-bangalore", "backend-node"]);
ask("backend", ["backend-bangalore", "backend-node"]);
ask("back-end developer", ["backend-bangalore", "backend-node"]);
ask("springboot", ["fullstack-eng", "java-dev", "sr-java"]);
ask("spring boot developer", ["java-dev", "sr-java", "fullstack-eng"]);
ask("powerbi", ["powerbi-analyst"]);
ask("power bi analyst", ["powerbi-analyst"]);
ask("ms excel", ["accounts-exec", "powerbi-analyst"]);
ask("advanced excel", ["accounts-exec", "powerbi-analyst"]);
ask("google cloud", ["gcp-cloud"]);
ask("google cloud engineer", ["gcp-cloud"]);
ask("artificial intelligence", ["genai"]);
ask("genai", ["genai"]);
ask("gen ai jobs", ["genai"]);
ask("machine learning", ["ml-eng", "data-scientist"]);
ask("ml engineer", ["ml-eng"]);
ask("Sr. Java Developer", ["sr-java"]);
ask("Sr Java Developer", ["sr-java"]);
ask("snr java", ["sr-java"]);
ask("jr frontend developer", ["jr-frontend"]);
ask("node js", ["backend-bangalore", "backend-node", "js-dev"]);
ask("nodejs", ["backend-bangalore", "backend-node", "js-dev"]);
ask("dev ops", ["devops-2", "devops"]);
ask("devops engineer", ["devops-2", "devops"]);
ask("site reliability engineer", ["sre"]);
ask("human resources", ["hr-exec"]);
ask("hr recruiter", ["hr-exec"]);
ask("data base", ["sql-dba"]);
ask("dba", ["sql-dba"]);
ask("my sql", ["sql-dba"]);
ask("postgres", ["backend-bangalore", "python-eng"]);
ask("vuejs", ["jr-frontend"]);
ask("quality assurance", ["qa-tester"]);
ask("amazon web services", ["devops-2", "sre"]);
ask("ci/cd", ["devops-2"]);
ask("sde", ["zurich-swe", "swe", "swe-intern", "django-dev"]);
// A grade or a version asks nothing more of the job.
ask("sde 2", ["zurich-swe", "swe", "swe-intern", "django-dev"]);
ask("SDE-1", ["zurich-swe", "swe", "swe-intern", "django-dev"]);
ask("software engineer ii", ["zurich-swe", "swe", "swe-intern", "django-dev"]);
ask("java 17", ["sr-java", "java-dev", "fullstack-eng"]);
ask("java dev", ["sr-java", "java-dev", "fullstack-eng"]);
ask("large language models", ["genai"]);
ask("customer care", ["wfh-support"]);
ask("iphone developer", ["ios-dev"]);
ask("ui ux designer", ["ui-designer"]);
ask("tally gst accountant", ["accounts-exec"]);
ask("mern", ["fullstack"]);
ask("fsd", ["fullstack-eng", "fullstack"]);
ask("kuberentes", ["gcp-cloud", "devops"]);
ask("javascrpt", ["js-dev", "react-dev"]);

// Word forms.
some("engineering", ["ml-eng", "sre", "cpp-eng", "designer"], "devops-2", ["python-trainer"]);
some("developers", ["react-dev", "go-dev", "java-dev"], "python-dev-2", ["sre"]);
ask("tester", ["qa-tester"]);
ask("testing", ["qa-tester"]);
ask("testers", ["qa-tester"]);
ask("software testing", ["qa-tester"]);
ask("nursing", ["nurse"]);
// A verb's noun finds the role of the verb.
some("development", ["react-dev", "go-dev", "java-dev"], "python-dev-2", ["sre"]);
ask("management", ["sales-senior", "marketing-manager"]);
ask("recruitment", ["hr-exec"]);
ask("database administration", ["sql-dba"]);
ask("nurses", ["nurse"]);
ask("nursing jobs", ["nurse"]);
ask("teaching", ["teacher", "python-trainer"]);
ask("marketer", ["marketing-intern", "marketing-manager"]);
ask("marketers", ["marketing-intern", "marketing-manager"]);
ask("maths teaching", ["teacher"]);
// A role saying the words as typed first: Content Writing Intern for `content writing`, Content
// Writer for `writer` (the vocabulary reads both as one).
ask("content writing", ["content-intern", "content-writer"]);
// A writer is a writer, not every job that writes (the research job writes lab reports).
ask("writer", ["content-intern", "content-writer"], "content-writer");
ask("content writer", ["content-intern", "content-writer"], "content-writer");
ask("payments", ["golang-dev", "go-dev"]);

// Experience phrases: matched against the experience, never the text.
ask("3 years", withExperience("2-3", "3+"), "devops-2");
// A batch before the options' 2025 has worked since: a year or two for 2024, five or six for 2020.
ask("2024 passout", withExperience("0-1", "1-2", "2-3"), "devops-2");
ask("2020 batch", withExperience("3+", "4+", "5+", "6+"), "sql-dba");
ask("java 2023 pass out", ["java-dev", "fullstack-eng"]);
// The year on either side, and "passed out", as seekers write a batch.
ask("passout 2024", withExperience("0-1", "1-2", "2-3"), "devops-2");
ask("batch 2020", withExperience("3+", "4+", "5+", "6+"), "sql-dba");
ask("2025 passed out", withExperience("2025 passout"));
ask("java passed out 2023", ["java-dev", "fullstack-eng"]);
ask("3+ years", withExperience("2-3", "3+"), "devops-2");
ask("4 yrs exp", withExperience("3+", "4+"), "python-dev-2");
ask("5 years experience", withExperience("3+", "4+", "5+"), "sql-dba");
ask("1 year", withExperience("0-1", "1-2"), "jr-frontend");
ask("one year", withExperience("0-1", "1-2"), "jr-frontend");
ask("java two to three years", ["java-dev", "fullstack-eng"]);
ask("0 years", FRESHERS, "content-intern");
ask("10 years", withExperience("3+", "4+", "5+", "6+"), "sql-dba");
ask("entry level", FRESHERS, "content-intern");
ask("fresher jobs", FRESHERS, "content-intern");
// A long filter word misspelt is the filter word.
ask("intenship", ["content-intern", "swe-intern", "marketing-intern"]);
ask("experianced java developer", ["sr-java", "java-dev", "fullstack-eng"]);
ask("3 years java", ["java-dev", "fullstack-eng"]);
// A year and a half is not 5 years.
ask("1.5 years react", ["react-dev", "js-dev"]);
ask("java 1.5 to 3 years", ["java-dev", "fullstack-eng"]);
ask("python 4 years", ["python-dev-2", "python-trainer", "genai"]);
ask("java 5+ years", ["sr-java", "java-dev"]);
ask("experienced java developer", ["sr-java", "java-dev", "fullstack-eng"]);
ask("entry level developer", ["jr-frontend"]);
ask("fresher developer", ["jr-frontend"]);
ask("senior developer", ["python-dev-2", "backend-bangalore", "sr-java"]);
ask("senior sales", ["sales-senior"]);
ask("junior developer", ["jr-frontend", "react-dev", "js-dev", "django-dev"]);
ask("sales executive fresher", ["sales"]);
// A degree's single letter is no word: B.E. is not the nurse's B.Sc.
ask("b.e fresher", FRESHERS, "content-intern");
some("experienced", withExperience("1-2", "2-3", "3+", "4+", "5+", "6+"), "sql-dba", FRESHERS);
some("junior", ["jr-frontend", "react-dev", "swe"], "jr-frontend", ["zurich-swe", "sr-java"]);
some("senior", ["zurich-swe", "sr-java", "sales-senior"], "sql-dba", ["jr-frontend", "swe"]);

// Places typed in the keyword box, and the location box read as a place.
ask("bangalore", BANGALORE);
ask("jobs in bangalore", BANGALORE);
ask("reactjs developer bangalore", ["react-dev"]);
ask("developer jobs in bengaluru", ["backend-bangalore", "react-dev", "go-dev"]);
ask("jobs in mumbai", ["ui-designer", "mobile", "marketing-intern", "js-dev"]);
ask("mumbai jobs", ["ui-designer", "mobile", "marketing-intern", "js-dev"]);
ask("jobs in hyderabad", ["python-dev-2", "fullstack", "swe", "r-stats"]);
ask("python jobs in hyderabad", ["python-dev-2", "swe"]);
ask("jobs near pune", ["embedded", "ml-eng", "designer", "django-dev"]);
ask("openings in chennai", ["sre", "sales", "backend-node", "java-dev", "python-trainer"]);
ask("vacancy in noida", ["devops-2", "data-eng", "cpp-eng"]);
ask("mysore jobs", ["sales-senior", "genai"]);
ask("pune location", ["embedded", "ml-eng", "designer", "django-dev"]);
ask("noida based", ["devops-2", "data-eng", "cpp-eng"]);
ask("cochin", ["jr-frontend", "fullstack-eng"]);
ask("baroda java", ["sr-java"]);
ask("trivandrum", ["nurse", "gcp-cloud"]);
ask("staff nurse trivandrum", ["nurse"]);
ask("pondicherry teacher", ["teacher"]);
ask("allahabad", ["research"]);
ask("vizag", ["golang-dev"]);
ask("mangalore", ["ios-dev"]);
ask("belgaum", ["qa-tester"]);
ask("gurgaon hr", ["hr-exec"]);
ask("calcutta accounts", ["accounts-exec"]);
ask("bombay designer", ["ui-designer"]);
ask("madras", ["sre", "sales", "backend-node", "java-dev", "python-trainer"]);
ask("delhi ncr", [
  "devops-2",
  "hr-exec",
  "data-eng",
  "devops",
  "content-writer",
  "dotnet-dev",
  "cpp-eng",
]);
ask("", BANGALORE, "sql-dba", "Bangalore, India");
ask("", BANGALORE, "sql-dba", "bengaluru, karnataka");
ask(
  "",
  ["ui-designer", "mobile", "marketing-intern", "js-dev"],
  "ui-designer",
  "Mumbai, Maharashtra, India",
);
ask(
  "",
  ["python-dev-2", "fullstack", "swe", "r-stats"],
  "python-dev-2",
  "Hyderabad, Telangana, India",
);
// A state or the country finds the jobs that name only their city; India is every job but Zürich's.
const IN_INDIA = all((job) => !job.location.includes("Switzerland"));
ask("", IN_INDIA, "content-intern", "India");
ask("jobs in india", IN_INDIA, "content-intern");
ask("", [...BANGALORE, "qa-tester", "ios-dev", "genai", "sales-senior"], "sql-dba", "Karnataka");
ask("jobs in kerala", ["jr-frontend", "nurse", "gcp-cloud", "fullstack-eng"]);
// A misspelt city is the city, in either box.
ask("", BANGALORE, "sql-dba", "Banglore");
ask("", BANGALORE, "sql-dba", "bengalore");
ask("banglore", BANGALORE, "sql-dba");
ask("python banglore", ["python-eng"]);
ask("jobs in hydrabad", ["python-dev-2", "fullstack", "swe", "r-stats"]);
ask("", ["hr-exec", "devops", "dotnet-dev"], "hr-exec", "Gurgoan");
ask("", ["sre", "sales", "backend-node", "java-dev", "python-trainer"], "sre", "chenai");
// A misspelt state in the location box is the state, as in the keyword box.
ask("", [...BANGALORE, "qa-tester", "ios-dev", "genai", "sales-senior"], "sql-dba", "Karnatka");
ask("", ["jr-frontend", "nurse", "gcp-cloud", "fullstack-eng"], "jr-frontend", "Kerela");
ask("", all((job) => job.location.includes("Gujarat")), "powerbi-analyst", "Gujrat");
// Several cities in the location box are alternatives, as in the keyword box.
const PUNE_OR_HYDERABAD = all((job) => /Pune|Hyderabad/.test(job.location));
ask("", PUNE_OR_HYDERABAD, "python-dev-2", "Pune / Hyderabad");
ask("", PUNE_OR_HYDERABAD, "python-dev-2", "pune or hyderabad");
ask("", PUNE_OR_HYDERABAD, "python-dev-2", "Hyderabad, Pune");
ask("python", ["python-dev-2", "django-dev", "ml-eng", "swe"], "python-dev-2", "Pune/Hyderabad");
ask("", ["jr-frontend", "fullstack-eng"], "jr-frontend", "Cochin");
ask("", ["jr-frontend", "fullstack-eng"], "jr-frontend", "Kochi, Kerala");
ask("", ["sr-java"], "sr-java", "Baroda");
ask("", ["sr-java"], "sr-java", "Vadodara");
ask("", ["nurse", "gcp-cloud"], "nurse", "Thiruvananthapuram");
ask("", ["sales-senior", "genai"], "sales-senior", "Mysore");
ask("", ["teacher"], "teacher", "Puducherry");
ask("", ["research"], "research", "Prayagraj");
ask("", ["golang-dev"], "golang-dev", "Visakhapatnam");
ask("", ["ios-dev"], "ios-dev", "Mangaluru");
ask("", ["qa-tester"], "qa-tester", "Belagavi");
// A place within a city, a PIN code and a state's short form: the city's jobs.
ask("", ["ui-designer", "mobile", "marketing-intern", "js-dev"], "ui-designer", "Mumbai (Andheri)");
ask("", ["embedded", "ml-eng", "designer", "django-dev"], "embedded", "Pune - Hinjewadi");
ask("", ["devops-2", "data-eng", "cpp-eng"], "devops-2", "Noida, UP");
ask("", BANGALORE, "sql-dba", "Koramangala, Bangalore 560034");
ask("", ["sre", "sales", "backend-node", "java-dev", "python-trainer"], "sre", "Tamilnadu");
ask("", ["sre", "sales", "backend-node", "java-dev", "python-trainer"], "sre", "in chennai");
ask("python", ["python-dev-2", "swe"], "python-dev-2", "Hyderabad, India");
ask(
  "developer",
  ["backend-bangalore", "react-dev", "go-dev"],
  "backend-bangalore",
  "Bangalore, Karnataka, India",
);

// Remote is one idea, in either box.
ask("remote", REMOTE);
ask("work from home", REMOTE);
ask("wfh", REMOTE);
ask("anywhere", REMOTE);
ask("remote jobs", REMOTE);
ask("telecommute", REMOTE);
ask("home based", REMOTE);
ask("work from anywhere", REMOTE);
ask("remote work", REMOTE);
ask("i am looking for work from home job", REMOTE);
ask("i want a python job", [
  "python-dev-2",
  "python-eng",
  "python-trainer",
  "ml-eng",
  "genai",
  "data-eng",
  "data-scientist",
  "django-dev",
  "content-writer",
  "swe",
]);
ask("remote developer", ["frontend"]);
ask("wfh telecaller", ["telecaller"]);
ask("work from home customer support", ["wfh-support"]);
ask("", REMOTE, "telecaller", "Work From Home");
ask("", REMOTE, "telecaller", "remote");
ask("", REMOTE, "telecaller", "wfh");
ask("", REMOTE, "telecaller", "Remote, India");
ask("", REMOTE, "telecaller", "Home-based");
// A work mode and a city joined by "or" (or a slash, in the location box) are alternatives.
const REMOTE_OR_BANGALORE = [...REMOTE, ...BANGALORE];
ask("remote or bangalore", REMOTE_OR_BANGALORE, "sql-dba");
ask("bangalore or work from home", REMOTE_OR_BANGALORE, "sql-dba");
ask("react remote or bangalore", ["react-dev", "frontend"]);
ask("", REMOTE_OR_BANGALORE, "sql-dba", "Bangalore / Remote");
ask("react", ["react-dev", "frontend"], "react-dev", "remote or bengaluru");
ask("remote bangalore", []);

// Short skill words: whole words only; the job whose role names the skill first.
ask("R", ["r-stats", "data-scientist"]);
ask("R programmer", ["r-stats"]);
ask("c", ["embedded", "cpp-eng"]);
ask("c developer", ["embedded", "cpp-eng"]);
// Both roles name the skill for `go` (go ≈ golang, the newer first); `golang` as typed first.
ask("go", ["golang-dev", "go-dev"]);
ask("golang", ["golang-dev", "go-dev"]);
ask("go developer vizag", ["golang-dev"]);
ask("ai", ["genai"]);
ask("ml", ["ml-eng", "data-scientist"]);
ask("qa", ["qa-tester"]);
ask("ui", ["ui-designer"]);
ask("r&d", ["research", "golang-dev"]);
ask("objective-c", ["ios-dev"]);

// Partial matches instead of nothing: the most words first, role words that mean the same weaker.
ask("qa engineer", ["qa-tester"]);
ask("C++ developer bangalore", [
  "backend-bangalore",
  "react-dev",
  "go-dev",
  "swe-intern",
  "python-eng",
]);
ask("react developer chennai", ["java-dev", "sre", "backend-node"]);
ask("python developer mumbai", ["mobile", "js-dev"]);
ask("react programmer", REACT);
ask("kotlin programmer", ["mobile"]);
ask("java coder", ["sr-java", "java-dev", "fullstack-eng"]);
ask("swift engineer", ["ios-dev"]);
some("php developer", ["react-dev", "sre"], "python-dev-2");
// A phrase of the vocabulary counts whole or not at all: `back office` is no half of a backend
// job, `data entry` none of a data engineer's; the other words typed still count.
ask("back office", []);
ask("data entry operator", []);
some("back office executive", ["hr-exec", "accounts-exec"], "hr-exec", [
  "backend-bangalore",
  "backend-node",
]);
ask("power bi developer", ["powerbi-analyst"]);
// A title any field shares (executive, manager) counts half: the field typed decides.
ask("seo executive", ["marketing-manager"]);
ask("hr manager", ["hr-exec"]);
ask("marketing executive", ["marketing-intern", "marketing-manager"]);
// A filter word naming no place counts as a weaker word: the subject typed decides.
const INTERNSHIPS = ["content-intern", "swe-intern", "marketing-intern"];
ask("summer internship", INTERNSHIPS, "content-intern");
ask("paid internship in mumbai", ["marketing-intern"]);
ask("content writer freelance", ["content-intern", "content-writer"], "content-writer");
ask("java fresher", ["sr-java", "java-dev", "fullstack-eng"]);
ask("part time teacher", ["teacher", "python-trainer"]);
ask("nurse remote", []);
// A filter word only ranks what the words typed found: no fresher job of another trade for a nurse
// wanted where no nurse works, none for a role no job holds.
ask("fresher nurse chennai", []);
ask("senior nurse in mumbai", []);
ask("senior pilot", []);
ask("experienced welder mumbai", []);
ask("fresher electrician", []);
// Words of job ads that are no typo of a skill nor a verb: shift is not Swift, joiner not "join".
ask("night shift", []);
ask("telecaller night shift", ["telecaller"]);
ask("immediate joiner", []);
ask("java developer immediate joiner", ["sr-java", "java-dev", "fullstack-eng"]);
ask("senior internship", []);
// A misspelt word is one letter off as typed, though the stemmer cut its ending: `manger` is no
// `mang` of Mangala Apps, `nurce` no four-letter word too short for a typo.
ask("manger", ["sales-senior", "marketing-manager"]);
ask("mangement", ["sales-senior", "marketing-manager"]);
ask("nurce", ["nurse"]);
// A telecaller's job is a sales job (its category's word, `CATEGORY_WORDS`), below the two saying it.
ask("saels", ["sales-senior", "sales", "telecaller"]);
ask("maths", ["teacher"]);
// No experience, however written, is a fresher's.
ask("0 exp", FRESHERS, "content-intern");
ask("zero experience", FRESHERS, "content-intern");
// A trainee is a fresher on a job, no intern alone; nor is a trainer one.
ask("trainee", FRESHERS, "content-intern");
ask("trainer", ["python-trainer"]);
// A word spelt right that no job holds is no typo of another: a slip seldom takes the first
// letter (hacker is no back-end, teller no seller), and a stem of three letters none at all (baker's
// bak is no back-end, rider's rid no research).
ask("hacker", []);
// Two common words are no word written as one: workday is no "work" and a "day" apart.
ask("workday", []);
// Nor is a word with its first letter changed, with two edits to spare: acountent is no content.
ask("acountent", ["accountant", "accounts-exec"]);
// A doer's -er misspelt as it sounds is the doer.
ask("teachar", ["teacher"]);
ask("baker", []);
ask("rider", []);
ask("teller", []);
// A category's word finds the category's jobs, though they never say it.
ask("healthcare jobs", ["nurse"]);
ask("finance jobs", ["accounts-exec", "accountant"]);
ask("hr jobs", ["hr-exec"]);
ask("hospitality", []);
// A slip in a word's ending, which the stem hides: two letters swapped, one put in.
ask("managre", ["sales-senior", "marketing-manager"]);
ask("nurese", ["nurse"]);
// A slip of a known word is that word, though the stemmer would cut it to another known word's
// stem: techer is no tech and its -er.
ask("techer", ["teacher", "python-trainer"]);
// A trade's word no job here holds is a word, never a slip of another: a waiter is no writer.
ask("waiter", []);
// Filter words joined by "or" are alternatives.
ask(
  "contract or freelance",
  all((job) => ["Contract", "Freelance"].includes(job.employmentType)),
  "research",
);
ask("fresher or experienced", all(() => true), "content-intern");

// Filler words never make a search fail; long queries keep their meaningful words.
ask("jobs", all(() => true), "content-intern");
ask("job openings", all(() => true), "content-intern");
ask("in", all(() => true), "content-intern");
ask(
  `Data Scientist (Python, R) - ${"machine learning models for clinical research and ".repeat(8)}`,
  ["data-scientist"],
);
ask(
  `Senior Java Developer with Spring Boot, Hibernate and microservices ${"on AWS ".repeat(50)}`,
  ["sr-java"],
);

relevanceSuite(fixtureCatalog(ALL_FIXTURE_JOBS), CASES);

Deno.test("relevance: the suite of a seeker's own words has at least 100 queries", () => {
  assert.ok(Object.keys(CASES).length >= 100, `${Object.keys(CASES).length} queries`);
});

Deno.test("an empty result's looser search drops a whole piece, never half a phrase", () => {
  const catalog = fixtureCatalog(ALL_FIXTURE_JOBS);
  const looser = (keywords: string, experience?: string) =>
    catalog.looser({ keywords, experience })?.search;
  // No front end React job wants 5+ years: each offer keeps `front end` whole.
  assert.deepEqual(looser("front end react", "5+"), {
    keywords: "front end react",
    experience: undefined,
  });
  // No fresher job in Chennai has React: one whole piece goes (the place), never `end` or `in`.
  const offer = looser("react fresher jobs in chennai");
  assert.ok(offer?.keywords, "a query is offered");
  for (const piece of offer!.keywords!.split(" ")) {
    assert.ok(["react", "fresher", "chennai"].includes(piece), offer!.keywords);
  }
  assert.ok(
    catalog.page({ page: 1, limit: 12, keywords: offer!.keywords }).pagination.totalJobs > 0,
  );
  // The words naming what is sought are kept before a place or a filter word, even when dropping
  // them would find more jobs: no remote nurse, so the nurse's job rather than the four remote ones.
  assert.deepEqual(looser("remote nurse"), { keywords: "nurse", experience: undefined });
  assert.deepEqual(looser("kotlin remote"), { keywords: "kotlin", experience: undefined });
  assert.deepEqual(looser("fresher react native chennai")?.keywords?.includes("react"), true);
});

Deno.test("a job's work mode is its place word too: Remote as its JobPosting says, Hybrid and On-site", () => {
  // An admin set the work mode of a job whose location names only its city.
  const catalog = fixtureCatalog(
    ALL_FIXTURE_JOBS.map((job) =>
      job._id === "go-dev"
        ? { ...job, workMode: "Remote" as const }
        : job._id === "designer"
        ? { ...job, workMode: "Hybrid" as const }
        : job
    ),
  );
  const ids = (query: { keywords?: string; location?: string }) =>
    catalog.page({ page: 1, limit: 100, ...query }).jobs.map((job) => job._id).sort();
  const remote = [...REMOTE, "go-dev"].sort();
  assert.deepEqual(ids({ keywords: "remote" }), remote);
  assert.deepEqual(ids({ keywords: "work from home" }), remote);
  assert.deepEqual(ids({ location: "WFH" }), remote);
  assert.deepEqual(ids({ keywords: "go remote" }), ["go-dev"]);
  assert.deepEqual(ids({ keywords: "hybrid" }), ["designer"]);
  assert.deepEqual(ids({ keywords: "hybrid designer pune" }), ["designer"]);
  assert.deepEqual(ids({ location: "Hybrid" }), ["designer"]);
  // On-site under its names: every job of that work mode.
  const onSite = catalog.page({ page: 1, limit: 100, workMode: "On-site" }).jobs
    .map((job) => job._id).sort();
  assert.ok(onSite.length > 40 && !onSite.includes("go-dev") && !onSite.includes("designer"));
  for (const said of ["onsite", "on-site", "On Site", "work from office", "WFO"]) {
    assert.deepEqual(ids({ keywords: said }), onSite, said);
    assert.deepEqual(ids({ location: said }), onSite, said);
  }
  assert.deepEqual(ids({ keywords: "on-site java" }), ["fullstack-eng", "java-dev", "sr-java"]);
  assert.deepEqual(ids({ location: "Pune, on-site" }), ["django-dev", "embedded", "ml-eng"]);
});

Deno.test("a filter word typed many times counts once, up to the 500 characters a query may have", () => {
  const catalog = fixtureCatalog(ALL_FIXTURE_JOBS);
  const ids = (keywords: string) => {
    const { jobs, partial } = catalog.page({ page: 1, limit: 100, keywords });
    return { ids: jobs.map((job) => job._id), partial };
  };
  const skills = "python java react golang kotlin swift figma tally selenium docker kubernetes " +
    "terraform django spring hibernate angular vue redux express mongodb postgresql mysql " +
    "oracle spark pytorch tensorflow langchain grpc jenkins aws linux";
  const filters = "fresher intern contract freelance 3 years ";
  const long = `${skills} ${filters.repeat(20)}`.slice(0, 500);
  assert.equal(long.length, 500);
  const once = ids(`${skills} ${filters}`);
  assert.ok(once.partial && once.ids.length > 0, JSON.stringify(once));
  assert.deepEqual(ids(long), once);
});

Deno.test("a word the vocabulary knows is never read as a typo of another", () => {
  // A board with no teaching job: `teacher` is not a typo of the tech jobs' `tech`.
  const teaching = ["teacher", "python-trainer"];
  const catalog = fixtureCatalog(ALL_FIXTURE_JOBS.filter((job) => !teaching.includes(job._id)));
  const ids = (keywords: string) =>
    catalog.page({ page: 1, limit: 100, keywords }).jobs.map((job) => job._id);
  assert.ok(ids("tech").length > 0, "jobs say tech");
  for (const keywords of ["teacher", "teachers", "teaching"]) assert.deepEqual(ids(keywords), []);
  // A word it does not know still finds its near spelling.
  assert.ok(ids("pyhton").includes("python-dev-2"));
});

Deno.test("a word a phrase binds is found only with it: Sales Development is no developer, Lead Generation (or leads) no team lead, a Security Guard no security job, a non-voice process no voice process, a night shift no day shift", () => {
  const specs: Spec[] = [
    {
      id: "sdr",
      role: "Sales Development Representative",
      company: "Opal Bank",
      location: "Bengaluru, Karnataka",
      type: "Full-Time",
      experience: "2-3",
      description: "Qualify leads and book demos for the account executives.",
      skills: { others: ["Lead Generation", "B2B Sales"] },
    },
    {
      id: "guard",
      role: "Security Guard",
      company: "Shield Facility Services",
      location: "Pune, Maharashtra",
      type: "Full-Time",
      experience: "1-2",
      description: "Keep our client's office safe in rotational shifts.",
    },
    {
      id: "bizdev",
      role: "Growth Associate",
      company: "Meridian Travel",
      location: "Pune, Maharashtra",
      type: "Full-Time",
      experience: "1-2",
      description: "Own our bizdev pipeline and run lead gen campaigns with the sales team.",
    },
    {
      id: "non-voice",
      role: "Process Associate - Non Voice",
      company: "Genpact",
      location: "Hyderabad, Telangana",
      type: "Full-Time",
      experience: "0-1",
      description: "Chat and email process for a US bank. 5 days working, night shift.",
    },
    {
      id: "voice",
      role: "Customer Care Executive",
      company: "Teleperformance",
      location: "Gurugram, Haryana",
      type: "Full-Time",
      experience: "0-1",
      description: "International voice process. Day shift, 6 days working.",
    },
  ];
  const search = searchWith(specs);
  const ids = (keywords: string) => search(keywords).jobs.map((job) => job._id);
  for (const keywords of ["developer", "development", "developers", "dev"]) {
    const found = ids(keywords);
    assert.ok(found.includes("react-dev"), `${keywords}: ${found}`);
    assert.ok(!found.includes("sdr") && !found.includes("bizdev"), `${keywords}: ${found}`);
  }
  for (const keywords of ["team lead", "lead", "tech lead"]) {
    assert.deepEqual(ids(keywords), ["sr-java"], keywords);
  }
  // The phrase, however it is written, finds its jobs; the other words stay words.
  assert.deepEqual(ids("sales development"), ["sdr"]);
  assert.deepEqual(ids("SDR"), ["sdr"]);
  assert.deepEqual(ids("BDR"), ["sdr"]);
  assert.deepEqual(ids("lead generation").sort(), ["bizdev", "sdr"]);
  assert.deepEqual(ids("leadgen").sort(), ["bizdev", "sdr"]);
  assert.deepEqual(ids("business development"), ["bizdev"]);
  // A security guard keeps a building safe: no cyber security job, and no guard's job for it.
  for (const keywords of ["security guard", "guard", "watchman", "security guards"]) {
    assert.deepEqual(ids(keywords), ["guard"], keywords);
  }
  for (const keywords of ["security", "cyber security", "information security"]) {
    assert.ok(!ids(keywords).includes("guard"), keywords);
  }
  assert.deepEqual(ids("voice process"), ["voice"]);
  assert.deepEqual(ids("non voice"), ["non-voice"]);
  assert.deepEqual(ids("non-voice process"), ["non-voice"]);
  assert.deepEqual(ids("day shift"), ["voice"]);
  assert.deepEqual(ids("night shift"), ["non-voice"]);
  // Its leads are the people it calls: `leads` finds them, `lead` does not.
  assert.deepEqual(ids("leads").sort(), ["sdr", "telecaller"]);
  assert.ok(ids("sales").includes("sdr"));
  assert.ok(ids("representative").includes("sdr"));
});

Deno.test("a word written as two of four letters or more is found by its halves: tamilnadu", () => {
  const catalog = fixtureCatalog(ALL_FIXTURE_JOBS);
  const found = catalog.page({ page: 1, limit: 100, keywords: "tamilnadu jobs" }).jobs;
  const inState = ALL_FIXTURE_JOBS.filter((job) => job.location.includes("Tamil Nadu"));
  assert.ok(inState.length > 0);
  assert.deepEqual(found.map((job) => job._id).sort(), inState.map((job) => job._id).sort());
});

Deno.test("a role word stands for another only in a role: a description's training program is no programmer", () => {
  const specs: Spec[] = [
    { id: "java-lead", role: "Java Tech Lead", description: "Lead our Java team." },
    {
      id: "java-trainee",
      role: "Trainee - Java",
      description: "Join our campus training program.",
    },
  ].map((spec) => ({
    ...spec,
    company: "Acme",
    location: "Pune, Maharashtra",
    type: "Full-Time",
    experience: "1-2",
  }));
  // The suite's Java jobs left out: here no job has both words.
  const search = searchWith(
    specs,
    ALL_FIXTURE_JOBS.filter((job) => !/java/i.test(JSON.stringify(job))),
  );
  const { jobs, partial } = search("java developer");
  assert.ok(partial);
  assert.deepEqual(jobs.map((job) => job._id).sort(), ["java-lead", "java-trainee"]);
});

Deno.test("a title with its grade joined on is the title: SDE-1 and SDE2 are software engineers", () => {
  const specs: Spec[] = [
    { id: "sde1-be", role: "SDE-1 (Backend)", skills: { languages: ["Java"] } },
    { id: "sde2-go", role: "SDE2 - Payments", skills: { languages: ["Go"] } },
  ].map((spec) => ({
    ...spec,
    company: "Acme",
    location: "Bengaluru, Karnataka",
    type: "Full-Time",
    experience: "2-3",
  }));
  const search = searchWith(specs);
  const ids = (keywords: string) => search(keywords).jobs.map((job) => job._id);
  for (const keywords of ["sde", "sde 1", "sde-1", "sde1", "SDE 2", "software engineer"]) {
    const found = ids(keywords);
    assert.ok(found.includes("sde1-be") && found.includes("sde2-go"), `${keywords}: ${found}`);
  }
  assert.deepEqual(ids("sde backend java"), ["sde1-be"]);
});

Deno.test("a role saying the words as typed ranks above one the vocabulary only reads so, the newer though it is", () => {
  const job = (id: string, role: string, description: string) =>
    roleSpec(id, role, { description });
  // Each pair's second is the newer: a tie would rank it first.
  const specs: Spec[] = [
    job("teacher-job", "TGT Mathematics Teacher", "Teach classes 6 to 10."),
    job("tutor-job", "Online English Tutor", "Teach spoken English online."),
    job("care-job", "Customer Care Executive", "Answer customers' calls."),
    job("it-support-job", "IT Support Engineer", "Fix laptops and the office network."),
    job("service-job", "Customer Service Officer", "Serve the bank's customers at the branch."),
    job("genai-job", "GenAI Engineer (LLM, RAG)", "Build assistants on large language models."),
    job("ai-job", "AI/ML Engineer - Fresher", "Train models for our AI products."),
    job("golang-job", "Golang Developer", "Build payment services."),
    job("go-job", "Go Developer", "Build payment services."),
  ];
  const search = searchWith(specs);
  const first = (keywords: string) => search(keywords).jobs[0]?._id;
  assert.equal(first("teacher"), "teacher-job");
  assert.equal(first("tutor"), "tutor-job");
  assert.equal(first("customer care"), "care-job");
  assert.equal(first("customer service"), "service-job");
  assert.equal(first("it support"), "it-support-job");
  assert.equal(first("golang"), "golang-job");
  // Words typed apart, written as one in the role: `gen ai` ranks the GenAI Engineer first.
  assert.equal(first("gen ai"), "genai-job");
  assert.equal(first("go"), "go-job");
});

Deno.test("a skill is found under its other spellings, and two typed words the vocabulary knows under their joined form", () => {
  const specs: Spec[] = [
    {
      id: "growth",
      role: "Growth Marketer",
      company: "Lattice Commerce",
      location: "Pune, Maharashtra",
      type: "Full-Time",
      experience: "2-3",
      skills: { tools: ["A/B Testing", "Google Analytics", "Google Ads"] },
    },
    {
      id: "ios",
      role: "App Engineer",
      company: "Lattice Commerce",
      location: "Pune, Maharashtra",
      type: "Full-Time",
      experience: "2-3",
      skills: { frameworks: ["UIKit"], databases: ["SQLite"] },
    },
    {
      id: "mlops",
      role: "Platform Engineer",
      company: "Lattice Commerce",
      location: "Pune, Maharashtra",
      type: "Full-Time",
      experience: "2-3",
      skills: { tools: ["MLflow", "OpenTelemetry"], databases: ["Vector Databases"] },
    },
    {
      id: "web",
      role: "Web Engineer",
      company: "Lattice Commerce",
      location: "Pune, Maharashtra",
      type: "Full-Time",
      experience: "2-3",
      skills: { tools: ["Vite", "Cypress"], frameworks: ["GraphQL"] },
    },
  ];
  const catalog = fixtureCatalog(specs.map(jobOf));
  const ids = (keywords: string) =>
    catalog.page({ page: 1, limit: 100, keywords }).jobs.map((job) => job._id);
  const found: [string, string][] = [
    ["ab testing", "growth"],
    ["split testing", "growth"],
    ["ga4", "growth"],
    ["adwords", "growth"],
    ["ui kit", "ios"],
    ["sql lite", "ios"],
    ["ml flow", "mlops"],
    ["otel", "mlops"],
    ["vector db", "mlops"],
    ["vitejs", "web"],
    ["gql", "web"],
    ["cypress.io", "web"],
  ];
  for (const [keywords, id] of found) assert.deepEqual(ids(keywords), [id], keywords);
  // The words of a one-word canonical form stay words: analytics and testing find their jobs.
  assert.deepEqual(ids("analytics"), ["growth"]);
  assert.deepEqual(ids("testing"), ["growth"]);
});

Deno.test("IT and non-IT jobs in the keyword box are the IT categories and the rest; `it` beside words is no filter", () => {
  const catalog = fixtureCatalog(ALL_FIXTURE_JOBS);
  const page = (keywords: string) => catalog.page({ page: 1, limit: 100, keywords });
  const ids = (keywords: string) => page(keywords).jobs.map((job) => job._id).sort();
  const it = idsWhere((job) => IT_CATEGORIES.includes(job.category), ALL_FIXTURE_JOBS).sort();
  const nonIt = idsWhere((job) => !IT_CATEGORIES.includes(job.category), ALL_FIXTURE_JOBS).sort();
  assert.ok(it.length > 10 && nonIt.length > 10, `${it.length} IT, ${nonIt.length} others`);
  for (const keywords of ["IT jobs", "it", "it openings"]) {
    assert.deepEqual(ids(keywords), it, keywords);
  }
  for (const keywords of ["non IT jobs", "non-it", "nonIT", "non technical jobs"]) {
    assert.deepEqual(ids(keywords), nonIt, keywords);
  }
  // With the other filters and places, as every filter word is.
  const inPune = (id: string) =>
    ALL_FIXTURE_JOBS.find((job) => job._id === id)!.location.includes("Pune");
  assert.deepEqual(ids("IT jobs in pune"), it.filter(inPune));
  assert.deepEqual(ids("non it jobs pune"), nonIt.filter(inPune));
  assert.deepEqual(ids("it fresher"), ids("fresher").filter((id) => it.includes(id)));
  // The category dropdown counts only the categories the word lets in.
  const counted = page("IT jobs").facets.categories.filter(([, jobs]) => jobs > 0);
  assert.ok(counted.length > 2 && counted.every(([name]) => IT_CATEGORIES.includes(name as never)));
  // Beside words, `it` is the stop word it always was: an IT recruiter is a recruiter.
  assert.deepEqual(ids("it recruiter"), ids("recruiter"));
  assert.deepEqual(ids("make it work"), ids("make work"));
});

Deno.test("words typed with `or` between them are alternatives: a job with any of them is a match, not a partial one", () => {
  const catalog = fixtureCatalog(ALL_FIXTURE_JOBS);
  const search = (keywords: string) => {
    const { jobs, partial } = catalog.page({ page: 1, limit: 100, keywords });
    return { ids: jobs.map((job) => job._id).sort(), partial };
  };
  const either = (...queries: string[]) =>
    [...new Set(queries.flatMap((keywords) => search(keywords).ids))].sort();
  for (const [a, b] of [["python", "java"], ["nurse", "teacher"], ["tally", "excel"]]) {
    const found = search(`${a} or ${b}`);
    assert.deepEqual(found, { ids: either(a, b), partial: false }, `${a} or ${b}`);
    assert.deepEqual(search(`${a} OR ${b}`), found);
  }
  // Beside other words, the alternatives are one of them (`java or python developer`); a
  // phrase is an alternative whole (`machine learning or data science`).
  assert.deepEqual(
    search("java or python developer"),
    { ids: either("java developer", "python developer"), partial: false },
  );
  assert.deepEqual(
    search("machine learning or data science"),
    { ids: either("machine learning", "data science"), partial: false },
  );
  // Without `or` both words are asked, and no job has both.
  assert.equal(search("python java").partial, true);
  // An `or` with nothing on one side, or before a filter word, asks nothing more.
  assert.deepEqual(search("python or"), search("python"));
  assert.deepEqual(search("or python"), search("python"));
  assert.deepEqual(search("python or fresher"), search("python fresher"));
});

Deno.test("a role saying the words as a phrase, in their order, ranks above one with them apart, the newer though it is", () => {
  const job = (id: string, role: string, company = "Acme") => roleSpec(id, role, { company });
  // Each pair's second is the newer: a tie would rank it first.
  const specs: Spec[] = [
    job("design-engineer", "Mechanical Design Engineer"),
    job("verification-engineer", "Design Verification Engineer"),
    job("office-assistant", "Office Assistant"),
    job("assistant-office", "Assistant Manager - Office Administration"),
    job("panchayat-assistant", "Data Entry Assistant", "Gram Panchayat Office"),
    job("field-sales", "Field Sales Executive"),
    job("inside-sales", "Executive - Inside Sales"),
    job("head-of-sales", "Head of Sales"),
    job("sales-head", "Sales Head"),
    job("front-end", "Front End Developer"),
    job("developer-front-end", "Developer - Front End and Back End"),
    job("asp-net", "ASP.NET Developer"),
    job("dot-net", "Developer (.NET, ASP, SQL)"),
    job("embedded", "Embedded Software Engineer"),
    job("sde", "Software Development Engineer II"),
  ];
  const search = searchWith(specs);
  const found = (keywords: string) => search(keywords).jobs.map((job) => job._id);
  const firstOf = (keywords: string, ids: string[]) =>
    found(keywords).filter((id) => ids.includes(id))[0];
  assert.equal(
    firstOf("design engineer", ["design-engineer", "verification-engineer"]),
    "design-engineer",
  );
  assert.deepEqual(
    found("office assistant").filter((id) => specs.some((spec) => spec.id === id)),
    ["office-assistant", "assistant-office", "panchayat-assistant"],
  );
  assert.equal(firstOf("sales executive", ["field-sales", "inside-sales"]), "field-sales");
  // Stop words aside; and in the order typed.
  assert.equal(firstOf("head of sales", ["head-of-sales", "sales-head"]), "head-of-sales");
  assert.equal(firstOf("sales head", ["head-of-sales", "sales-head"]), "sales-head");
  // Two words written as one, or one written as two, and a word of parts.
  assert.equal(
    firstOf("frontend developer", ["front-end", "developer-front-end"]),
    "front-end",
  );
  assert.equal(firstOf("asp net developer", ["asp-net", "dot-net"]), "asp-net");
  // One word typed, which the vocabulary reads as two, asks for no phrase: the tie stays a tie.
  assert.equal(firstOf("sde", ["sde", "embedded"]), "sde");
});

Deno.test("roles as Indian job seekers shorten and spell them: DEO, CDP, lab tech, counselor, D.Pharm, delivery boys", () => {
  const job = (id: string, role: string, description?: string) =>
    roleSpec(id, role, description ? { description } : {});
  const specs: Spec[] = [
    job("deo", "Data Entry Operator (Contractual)"),
    job("cdp", "Chef de Partie - Continental"),
    job("commis", "Commis I - Indian Kitchen", "Assist the CDP on the tandoor section."),
    job("lab-tech", "Lab Technician", "Run blood tests in a diagnostic lab."),
    job("loader", "Loader / Unloader", "Loading and unloading work for a labour contractor."),
    job("counsellor", "School Counsellor"),
    job("academic", "Academic Counsellor"),
    job("pharmacist", "Pharmacist", "A D.Pharm or B.Pharm with a registration."),
    job("mr", "Medical Representative - Pharma"),
    job("delivery-boy", "Delivery Boy"),
    job("delivery-partner", "Delivery Partner (Bike Required)"),
  ];
  const search = searchWith(specs);
  const found = (keywords: string) =>
    search(keywords).jobs.map((job) => job._id).filter((id) => specs.some((s) => s.id === id));
  assert.deepEqual(found("deo"), ["deo"]);
  assert.equal(found("cdp")[0], "cdp");
  assert.equal(found("lab tech")[0], "lab-tech");
  assert.ok(!found("lab tech").includes("loader"), "labour is no lab");
  assert.deepEqual(found("counselor").toSorted(), ["academic", "counsellor"]);
  assert.equal(found("d pharma")[0], "pharmacist");
  assert.equal(found("b.pharm")[0], "pharmacist");
  assert.deepEqual(found("delivery boys").toSorted(), ["delivery-boy", "delivery-partner"]);
});

Deno.test("beside another word, developer, engineer and programmer stand for one another in a role, ranked below the word typed", () => {
  const job = (id: string, role: string, languages: string[] = []) =>
    roleSpec(id, role, { skills: { languages } });
  const specs: Spec[] = [
    job("java-dev", "Java Developer (Spring Boot)", ["Java"]),
    job("java-eng", "Sr. Software Engineer - Java", ["Java"]),
    job("data-eng", "Data Engineer", ["Java", "Python"]),
    job("python-dev", "Full Stack Developer", ["Python"]),
    job("swe", "Software Engineer", ["Python", "Go"]),
    job("civil", "Civil Engineer"),
    roleSpec("python-tutor", "Python Trainer", { description: "Train our developer teams." }),
  ];
  const search = searchWith(specs, []);
  const found = (keywords: string) => search(keywords).jobs.map((job) => job._id);
  // The engineer saying Java in its role first; the Data Engineer, Java in its skills, after.
  assert.deepEqual(found("java developer"), ["java-dev", "java-eng", "data-eng"]);
  assert.deepEqual(found("java engineer"), ["java-eng", "java-dev", "data-eng"]);
  // A Python developer's search finds the engineers who write Python, below the developer who
  // does and above a trainer whose description only says developer; engineer stands for developer
  // in a role only (no Civil Engineer).
  assert.deepEqual(found("python developer"), ["python-dev", "swe", "data-eng", "python-tutor"]);
  assert.deepEqual(found("developer").toSorted(), ["java-dev", "python-dev", "python-tutor"]);
  // Where only an engineer has the other words, the search finds it whole, not as a near match.
  const devops = searchWith([...specs, job("devops", "DevOps Engineer")], [])("devops developer");
  assert.deepEqual([devops.jobs.map((job) => job._id), devops.partial], [["devops"], false]);
});

Deno.test("everyday names of jobs find them: lawyer, doctor, salesman, waiter, QC, a bike, data science", () => {
  const job = (id: string, role: string, description?: string) =>
    roleSpec(id, role, description ? { description } : {});
  const specs: Spec[] = [
    job("legal", "Legal Associate", "An LLB with two years at the bar."),
    job("medical-officer", "Medical Officer", "MBBS with a valid registration."),
    job("sales-associate", "Sales Associate - Retail"),
    job("steward", "F&B Steward"),
    job("qc", "QC Chemist", "Test raw material samples."),
    job("rider", "Delivery Executive", "Own two wheeler required."),
    job("data-scientist", "Data Scientist - Machine Learning"),
    job("printer", "Desktop Support Engineer", "Fix printers and laptops."),
    // Data and science apart are no data science: an iPhone app's Core Data, a CS degree.
    roleSpec("ios", "iOS Developer", {
      description: "A degree in Computer Science.",
      skills: { technologies: ["Core Data"] },
    }),
  ];
  const search = searchWith(specs);
  const found = (keywords: string) =>
    search(keywords).jobs.map((job) => job._id).filter((id) => specs.some((s) => s.id === id));
  assert.deepEqual(found("lawyer"), ["legal"]);
  assert.deepEqual(found("advocate"), ["legal"]);
  assert.deepEqual(found("doctor"), ["medical-officer"]);
  assert.deepEqual(found("salesman"), ["sales-associate"]);
  assert.deepEqual(found("waiter"), ["steward"]);
  assert.deepEqual(found("qc"), ["qc"]);
  assert.deepEqual(found("bike"), ["rider"]);
  assert.deepEqual(found("data science"), ["data-scientist"]);
  assert.deepEqual(found("data scientist"), ["data-scientist"]);
  // A word spelt right is no slip of another: a painter is no printer.
  assert.deepEqual(found("painter"), []);
  // A slip in a word's ending, which the stem hides.
  assert.deepEqual(found("casheir"), []);
  assert.deepEqual(found("steward"), ["steward"]);
});

Deno.test("a tester is QA, not a job that tests something; a penetration tester is security's", () => {
  const specs: Spec[] = [
    roleSpec("qa-auto", "QA Automation Engineer", { skills: { tools: ["Selenium"] } }),
    roleSpec("tester", "Manual Tester", { description: "Test our mobile apps." }),
    roleSpec("growth", "Data Scientist", { skills: { others: ["A/B Testing"] } }),
    roleSpec("swe", "Software Engineer", { description: "Write tests for what you build." }),
    roleSpec("vapt", "VAPT Analyst", { description: "Find the holes before others do." }),
  ];
  const search = searchWith(specs, []);
  const answer = (keywords: string) => {
    const { jobs, partial } = search(keywords);
    return { ids: jobs.map((job) => job._id).sort(), partial: partial ?? false };
  };
  for (const keywords of ["tester", "testers", "software tester", "software testing", "qa"]) {
    assert.deepEqual(answer(keywords), { ids: ["qa-auto", "tester"], partial: false }, keywords);
  }
  assert.deepEqual(answer("ab testing"), { ids: ["growth"], partial: false });
  for (const keywords of ["penetration tester", "pen tester", "pentester"]) {
    assert.deepEqual(answer(keywords), { ids: ["vapt"], partial: false }, keywords);
  }
});
