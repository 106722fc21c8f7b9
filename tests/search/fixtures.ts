/**
 * A fixed set of jobs for the relevance suite, oldest first: each job's `_id` is a readable name,
 * and its place in the list is its posting order (ties in relevance go to the later one).
 */
import { withDerived } from "../../kv/jobs/derived.ts";
import { ActiveCatalog } from "../../kv/jobs/catalogue.ts";
import type { EmploymentType, Experience, Job, Skills } from "../../kv/schemas.ts";
import { MORE_SPECS } from "./fixtures_more.ts";

export interface Spec {
  id: string;
  role: string;
  company: string;
  location: string;
  type: EmploymentType;
  experience: Experience;
  description?: string;
  skills?: Partial<Skills>;
  keywords?: string[];
}

const SPECS: Spec[] = [
  {
    id: "python-trainer",
    role: "Python Trainer",
    company: "Teachable Minds",
    location: "Chennai, Tamil Nadu",
    type: "Freelance",
    experience: "3+",
    skills: { languages: ["Python"] },
  },
  {
    id: "go-dev",
    role: "Go Developer",
    company: "Gopher Labs",
    location: "Bengaluru, Karnataka",
    type: "Full-Time",
    experience: "2-3",
    description: "Build fast services in Go for our payments platform.",
    skills: { languages: ["Go"], tools: ["Git"] },
  },
  {
    id: "django-dev",
    role: "Django Developer",
    company: "Goodwork Software",
    location: "Pune, Maharashtra",
    type: "Full-Time",
    experience: "1-2",
    description: "Good engineers wanted to build good Django apps.",
    skills: { languages: ["Python"], frameworks: ["Django"] },
  },
  {
    id: "java-dev",
    role: "Java Developer",
    company: "Javelin Systems",
    location: "Chennai, Tamil Nadu",
    type: "Full-Time",
    experience: "3+",
    skills: { languages: ["Java"], frameworks: ["Spring Boot"] },
  },
  {
    id: "js-dev",
    role: "JavaScript Developer",
    company: "Scriptly",
    location: "Mumbai, Maharashtra",
    type: "Part-Time",
    experience: "1-2",
    skills: { languages: ["JavaScript"], frameworks: ["React", "Node.js"] },
  },
  {
    id: "r-stats",
    role: "R Programmer",
    company: "Stats & Co",
    location: "Hyderabad, Telangana",
    type: "Contract",
    experience: "2-3",
    description: "Statistical models for clinical trials.",
    skills: { languages: ["R", "SQL"] },
  },
  {
    id: "cpp-eng",
    role: "C++ Engineer",
    company: "Fastcode",
    location: "Noida, Uttar Pradesh",
    type: "Full-Time",
    experience: "4+",
    skills: { languages: ["C++", "C"] },
  },
  {
    id: "dotnet-dev",
    role: "C# .NET Developer",
    company: "Redmond Soft",
    location: "Gurugram, Haryana",
    type: "Full-Time",
    experience: "3+",
    skills: { languages: ["C#"], frameworks: [".NET", "ASP.NET"] },
  },
  {
    id: "python-eng",
    role: "Python Engineer",
    company: "Snake Systems",
    location: "Bengaluru, Karnataka",
    type: "Full-Time",
    experience: "2-3",
    skills: { languages: ["Python"], databases: ["PostgreSQL"] },
  },
  {
    id: "data-scientist",
    role: "Data Scientist",
    company: "Insight Analytics",
    location: "Remote",
    type: "Full-Time",
    experience: "2-3",
    skills: { languages: ["Python", "R"] },
    keywords: ["machine learning", "data science"],
  },
  {
    id: "marketing-manager",
    role: "Marketing Manager",
    company: "Brandify",
    location: "Kolkata, West Bengal",
    type: "Full-Time",
    experience: "5+",
    description: "Own campaign management across channels.",
    keywords: ["marketing", "seo"],
  },
  {
    id: "marketing-intern",
    role: "Marketing Intern",
    company: "Brandify",
    location: "Mumbai, Maharashtra",
    type: "Internship",
    experience: "intern",
    keywords: ["marketing"],
  },
  {
    id: "swe-intern",
    role: "Software Engineer Intern",
    company: "Acme",
    location: "Bengaluru, Karnataka",
    type: "Internship",
    experience: "2025 passout",
  },
  {
    id: "swe",
    role: "Software Engineer",
    company: "Acme",
    location: "Hyderabad, Telangana",
    type: "Full-Time",
    experience: "0-1",
    description: "Services in TypeScript and some python.",
  },
  {
    id: "zurich-swe",
    role: "Senior Software Engineer",
    company: "Alpen Tech",
    location: "Zürich, Switzerland",
    type: "Full-Time",
    experience: "5+",
  },
  {
    id: "backend-node",
    role: "Backend Engineer",
    company: "Node Works",
    location: "Chennai, Tamil Nadu",
    type: "Contract",
    experience: "3+",
    skills: { frameworks: ["Node.js"], databases: ["MongoDB"] },
  },
  {
    id: "content-writer",
    role: "Content Writer",
    company: "Wordsmith",
    location: "New Delhi, Delhi",
    type: "Part-Time",
    experience: "0-1",
    description: "Write tutorials on python, data and the web.",
  },
  {
    id: "designer",
    role: "Product Designer",
    company: "Studio Nine",
    location: "Pune, Maharashtra",
    type: "Full-Time",
    experience: "2-3",
    description: "Work with engineering teams on the app.",
    skills: { tools: ["Figma"] },
  },
  {
    id: "frontend",
    role: "Frontend Developer",
    company: "Pixel",
    location: "Remote (India)",
    type: "Freelance",
    experience: "2-3",
    description: "Pair with our designer on every release.",
    skills: { frameworks: ["React"] },
  },
  {
    id: "devops",
    role: "DevOps Engineer",
    company: "Cloudnine",
    location: "Gurugram, Haryana",
    type: "Full-Time",
    experience: "3+",
    description: "Keep pixel dashboards green.",
    skills: { technologies: ["Kubernetes", "Docker"] },
  },
  {
    id: "sales",
    role: "Sales Executive",
    company: "Growth Inc",
    location: "Chennai, Tamil Nadu",
    type: "Full-Time",
    experience: "0-1",
  },
  {
    id: "data-eng",
    role: "Data Engineer",
    company: "Pipeline Co",
    location: "Noida, Uttar Pradesh",
    type: "Full-Time",
    experience: "2-3",
    skills: { languages: ["Python"], technologies: ["Spark"] },
  },
  {
    id: "mobile",
    role: "Mobile Developer",
    company: "Googly Apps",
    location: "Mumbai, Maharashtra",
    type: "Full-Time",
    experience: "2-3",
    skills: { languages: ["Kotlin"] },
  },
  {
    id: "accountant",
    role: "Accountant",
    company: "Ledger & Sons",
    location: "Jaipur, Rajasthan",
    type: "Full-Time",
    experience: "4+",
    description: "Remote work is not available for this role.",
  },
];

const BASE = Date.UTC(2026, 0, 10);

/** The job of a spec, posted an hour after the one before it (`i` jobs after the first). */
export const jobOf = (spec: Spec, i: number): Job => {
  const posted = new Date(BASE + i * 3_600_000).toISOString();
  return withDerived({
    _id: spec.id,
    jobId: `JB-${2001 + i}`,
    companyName: spec.company,
    role: spec.role,
    location: spec.location,
    experience: spec.experience,
    employmentType: spec.type,
    description: spec.description ?? `Join ${spec.company} as ${spec.role}.`,
    requiredDegree: "Any degree",
    hiringLink: `https://jobs.example/${spec.id}`,
    skills: {
      languages: [],
      technologies: [],
      frameworks: [],
      databases: [],
      tools: [],
      others: [],
      ...spec.skills,
    },
    keywords: spec.keywords ?? [],
    status: "active",
    datePosted: posted,
    movedToDumpAt: null,
    createdAt: posted,
    updatedAt: posted,
  });
};

export const FIXTURE_JOBS: Job[] = SPECS.map(jobOf);
/**
 * The first set and the jobs employers write in many ways, newer: the job set of the suite of a
 * seeker's own words.
 */
export const ALL_FIXTURE_JOBS: Job[] = [...SPECS, ...MORE_SPECS].map(jobOf);

export function fixtureCatalog(jobs: Job[] = FIXTURE_JOBS): ActiveCatalog {
  const catalog = new ActiveCatalog(1);
  for (const job of jobs) catalog.put(job);
  return catalog;
}

/** Ids of every fixture job matching `test`. */
export const idsWhere = (test: (job: Job) => boolean, jobs: Job[] = FIXTURE_JOBS) =>
  jobs.filter(test).map((job) => job._id);
