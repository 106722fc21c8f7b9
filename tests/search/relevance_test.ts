/**
 * The relevance suite: what a job seeker types, the jobs it must find (all of them, or exactly
 * these), the one it must rank first, and the jobs it must not find, over a fixed set of jobs.
 */
import assert from "node:assert/strict";
import { type Case, relevanceSuite } from "./cases.ts";
import { fixtureCatalog, idsWhere } from "./fixtures.ts";

const fullTime = idsWhere((job) => job.employmentType === "Full-Time");
const pythonJobs = ["python-trainer", "django-dev", "python-eng", "data-scientist", "data-eng"];

const CASES: Record<string, Case> = {
  // Short words are whole words.
  "Go is the language, not good, Django or Googly": {
    query: { keywords: "Go" },
    finds: ["go-dev"],
    exactly: true,
  },
  "R is the language, not every word with an r": {
    query: { keywords: "R" },
    finds: ["r-stats", "data-scientist"],
    exactly: true,
    first: "r-stats",
  },
  "C is the language only": { query: { keywords: "c" }, finds: ["cpp-eng"], exactly: true },
  "go developer is the Go job only": {
    query: { keywords: "go developer" },
    finds: ["go-dev"],
    exactly: true,
  },
  // Known words do not run into longer words.
  "Java does not find JavaScript": {
    query: { keywords: "Java" },
    finds: ["java-dev"],
    exactly: true,
  },
  "JavaScript finds JavaScript": {
    query: { keywords: "javascript" },
    finds: ["js-dev"],
    first: "js-dev",
  },
  // Symbols kept whole.
  "C++ is one skill": { query: { keywords: "C++" }, finds: ["cpp-eng"], exactly: true },
  "C# is one skill": { query: { keywords: "c#" }, finds: ["dotnet-dev"], exactly: true },
  ".NET is one skill": { query: { keywords: ".NET" }, finds: ["dotnet-dev"], exactly: true },
  "Node.js whole": {
    query: { keywords: "Node.js" },
    finds: ["js-dev", "backend-node"],
    exactly: true,
    first: "backend-node",
  },
  "node finds Node.js": {
    query: { keywords: "node" },
    finds: ["js-dev", "backend-node"],
    exactly: true,
  },
  // Punctuation.
  "a trailing comma in the query is punctuation": {
    query: { keywords: "python," },
    finds: [...pythonJobs, "swe", "content-writer"],
    first: "python-eng",
  },
  "a description's python, is found": {
    query: { keywords: "tutorials python" },
    finds: ["content-writer"],
    exactly: true,
  },
  // Case and accents.
  "zurich finds Zürich": { query: { keywords: "zurich" }, finds: ["zurich-swe"], exactly: true },
  "ZÜRICH finds Zürich": { query: { keywords: "ZÜRICH" }, finds: ["zurich-swe"], exactly: true },
  "Zürich in the location box": {
    query: { location: "zurich" },
    finds: ["zurich-swe"],
    exactly: true,
  },
  // Prefixes.
  "eng finds Engineer": {
    query: { keywords: "eng" },
    finds: ["cpp-eng", "python-eng", "swe", "zurich-swe", "backend-node", "devops", "data-eng"],
    first: "data-eng",
  },
  "engineer finds engineering, below the roles": {
    query: { keywords: "engineer" },
    finds: ["designer", "cpp-eng", "swe"],
    first: "data-eng",
  },
  "scient finds Data Scientist": {
    query: { keywords: "scient" },
    finds: ["data-scientist"],
    exactly: true,
  },
  // Typos.
  "pyhton finds Python": {
    query: { keywords: "pyhton" },
    finds: pythonJobs,
    first: "python-eng",
  },
  // Two letters apart, too far for a typo, but as commonly typed.
  "phyton finds Python": {
    query: { keywords: "phyton" },
    finds: pythonJobs,
    first: "python-eng",
  },
  "enginer finds Engineer": {
    query: { keywords: "enginer" },
    finds: ["cpp-eng", "data-eng"],
    first: "data-eng",
  },
  "managment finds Marketing Manager's management": {
    query: { keywords: "managment" },
    finds: ["marketing-manager"],
  },
  "kubernets (two edits allowed from nine letters)": {
    query: { keywords: "kuberentes" },
    finds: ["devops"],
    exactly: true,
  },
  "four letters forgive no typo": { query: { keywords: "jvaa" }, finds: [], exactly: true },
  // Filter words.
  "Full-time finds the full-time jobs": {
    query: { keywords: "Full-time" },
    finds: fullTime,
    exactly: true,
  },
  "full time": { query: { keywords: "full time" }, finds: fullTime, exactly: true },
  "fulltime": { query: { keywords: "fulltime" }, finds: fullTime, exactly: true },
  "part time": {
    query: { keywords: "part time" },
    finds: ["js-dev", "content-writer"],
    exactly: true,
  },
  "internship": {
    query: { keywords: "internship" },
    finds: ["marketing-intern", "swe-intern"],
    exactly: true,
  },
  "intern": {
    query: { keywords: "intern" },
    finds: ["marketing-intern", "swe-intern"],
    exactly: true,
  },
  "contract": {
    query: { keywords: "contract" },
    finds: ["r-stats", "backend-node"],
    exactly: true,
  },
  "freelance": {
    query: { keywords: "freelance" },
    finds: ["python-trainer", "frontend"],
    exactly: true,
  },
  "fresher": {
    query: { keywords: "fresher" },
    finds: ["marketing-intern", "swe-intern", "swe", "content-writer", "sales"],
    exactly: true,
  },
  "2025 passout": { query: { keywords: "2025 passout" }, finds: ["swe-intern"], exactly: true },
  "remote is where the job is, not a word in its text": {
    query: { keywords: "remote" },
    finds: ["data-scientist", "frontend"],
    exactly: true,
    not: ["accountant"],
  },
  "remote python": {
    query: { keywords: "remote python" },
    finds: ["data-scientist"],
    exactly: true,
  },
  "full time software engineer": {
    query: { keywords: "full time software engineer" },
    // Goodwork Software wants good engineers: found, below the roles.
    finds: ["swe", "zurich-swe", "django-dev"],
    exactly: true,
    first: "zurich-swe",
  },
  // Locations.
  "Bangalore finds Bengaluru": {
    query: { location: "Bangalore" },
    finds: ["go-dev", "python-eng", "swe-intern"],
    exactly: true,
  },
  "Bombay finds Mumbai": {
    query: { location: "bombay" },
    finds: ["js-dev", "marketing-intern", "mobile"],
    exactly: true,
  },
  "Madras finds Chennai": {
    query: { location: "Madras" },
    finds: ["python-trainer", "java-dev", "backend-node", "sales"],
    exactly: true,
  },
  "Calcutta finds Kolkata": {
    query: { location: "calcutta" },
    finds: ["marketing-manager"],
    exactly: true,
  },
  "Gurgaon finds Gurugram": {
    query: { location: "Gurgaon" },
    finds: ["dotnet-dev", "devops"],
    exactly: true,
  },
  "Delhi NCR covers Delhi, Noida and Gurugram": {
    query: { location: "Delhi NCR" },
    finds: ["cpp-eng", "dotnet-dev", "content-writer", "devops", "data-eng"],
    exactly: true,
  },
  "Delhi is Delhi": { query: { location: "delhi" }, finds: ["content-writer"], exactly: true },
  "location words match word-wise": {
    query: { location: "Tamil Nadu" },
    finds: ["python-trainer", "java-dev", "backend-node", "sales"],
    exactly: true,
  },
  // Ranking.
  "the role ranks above the description": {
    query: { keywords: "designer" },
    finds: ["designer", "frontend"],
    exactly: true,
    first: "designer",
  },
  "the company ranks above the description": {
    query: { keywords: "pixel" },
    finds: ["frontend", "devops"],
    exactly: true,
    first: "frontend",
  },
  "skills rank above the description": {
    query: { keywords: "python" },
    finds: pythonJobs,
    first: "python-eng",
  },
  "keywords count as skills": {
    query: { keywords: "data science" },
    finds: ["data-scientist"],
    first: "data-scientist",
  },
  "ties go to the newest": {
    query: { keywords: "marketing" },
    finds: ["marketing-manager", "marketing-intern"],
    exactly: true,
    first: "marketing-intern",
  },
  "a company name": { query: { keywords: "acme" }, finds: ["swe-intern", "swe"], exactly: true },
  // Keywords with the dropdown filters.
  "keywords and employment type": {
    query: { keywords: "engineer", employmentType: "Internship" },
    finds: ["swe-intern"],
    exactly: true,
  },
  "keywords, location and experience": {
    query: { keywords: "designer", location: "pune", experience: "2-3" },
    finds: ["designer"],
    exactly: true,
  },
  "a chosen role": {
    query: { role: "Software Engineer" },
    finds: ["swe"],
    exactly: true,
  },
};

relevanceSuite(fixtureCatalog(), CASES);

Deno.test("relevance: the suite has at least 50 queries", () => {
  assert.ok(Object.keys(CASES).length >= 50);
});
