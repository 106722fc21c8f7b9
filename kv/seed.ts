/**
 * The demo data set: realistic jobs across many (fictional) companies, roles and locations, some in
 * dump and some inactive, plus 90 days of analytics history. The generator is also used by the
 * benchmark to fill a database with 100,000 varied jobs.
 */
import { newId, retrying } from "./atomic.ts";
import { keys } from "./keys.ts";
import type { JobStore } from "./jobs.ts";
import { seedAnalyticsHistory } from "./analytics.ts";
import { DAY_MS, DAYS_ACTIVE_BEFORE_DUMP, DAYS_IN_DUMP_BEFORE_INACTIVE } from "./constants.ts";
import {
  type EmploymentType,
  type Experience,
  EXPERIENCE_OPTIONS,
  type Job,
  type JobStatus,
  type Skills,
} from "./schemas.ts";

interface Company {
  name: string;
  /** Used for the hiring link host: https://careers.<slug>.example/... */
  slug: string;
  pitch: string;
}

const COMPANIES: readonly Company[] = [
  { name: "Nimbus Labs", slug: "nimbuslabs", pitch: "builds observability tools for cloud teams" },
  { name: "Kaveri Fintech", slug: "kaverifintech", pitch: "runs UPI payments for small merchants" },
  { name: "Zentrix Technologies", slug: "zentrix", pitch: "makes ERP software for manufacturers" },
  { name: "Saffron Health", slug: "saffronhealth", pitch: "connects clinics and patients online" },
  { name: "Orbitly", slug: "orbitly", pitch: "plans last-mile delivery routes across India" },
  {
    name: "Pixelcraft Studios",
    slug: "pixelcraft",
    pitch: "designs mobile games played by millions",
  },
  { name: "Greenleaf Agritech", slug: "greenleaf", pitch: "helps farmers price and sell produce" },
  { name: "Quantiva Analytics", slug: "quantiva", pitch: "turns retail data into forecasts" },
  { name: "Bharat CloudWorks", slug: "bharatcloud", pitch: "operates a regional cloud platform" },
  { name: "Indigo Learning", slug: "indigolearning", pitch: "teaches coding to school students" },
  { name: "Tarang Media", slug: "tarangmedia", pitch: "streams regional-language shows" },
  {
    name: "Vyom Aerospace",
    slug: "vyomaero",
    pitch: "builds flight software for small satellites",
  },
  { name: "Lumen Robotics", slug: "lumenrobotics", pitch: "automates warehouse picking" },
  { name: "Cobalt Security", slug: "cobaltsec", pitch: "protects banks from account takeover" },
  { name: "Meridian Travel", slug: "meridiantravel", pitch: "sells trains, buses and flights" },
  { name: "Sprout Commerce", slug: "sproutcommerce", pitch: "powers online stores for D2C brands" },
  { name: "Helix Biotech", slug: "helixbio", pitch: "speeds up drug discovery with data" },
  {
    name: "Northstar Insurance",
    slug: "northstarins",
    pitch: "sells simple health insurance online",
  },
  { name: "Monsoon Mobility", slug: "monsoonmobility", pitch: "runs an electric scooter fleet" },
  {
    name: "Ambit Consulting",
    slug: "ambitconsulting",
    pitch: "modernises legacy IT for enterprises",
  },
  { name: "Papaya HR", slug: "papayahr", pitch: "automates payroll and hiring" },
  {
    name: "Kestrel AI",
    slug: "kestrelai",
    pitch: "builds speech recognition for Indian languages",
  },
  { name: "Ridgeway Energy", slug: "ridgewayenergy", pitch: "monitors rooftop solar plants" },
  { name: "Tulsi Foods", slug: "tulsifoods", pitch: "delivers groceries in 20 minutes" },
  { name: "Crestline Realty", slug: "crestline", pitch: "lists verified rental homes" },
  { name: "Falcon Logistics", slug: "falconlogistics", pitch: "moves freight between 300 cities" },
  { name: "Opal Bank", slug: "opalbank", pitch: "is a digital-first small finance bank" },
  { name: "Brightpath EdTech", slug: "brightpath", pitch: "prepares students for entrance exams" },
];

interface RoleTemplate {
  role: string;
  summary: string;
  duties: readonly string[];
  degree: string;
  skills: Skills;
  keywords: readonly string[];
  /** Yearly package range in lakh rupees for 0-1 years; it grows with experience. */
  basePackage: readonly [number, number];
}

const ROLES: readonly RoleTemplate[] = [
  {
    role: "Software Engineer",
    summary: "design, build and run the backend services behind our product",
    duties: [
      "Write well-tested services and APIs used by millions of requests a day",
      "Review code and share what you learn with the team",
      "Own features from design document to production monitoring",
      "Improve the performance and reliability of existing systems",
    ],
    degree: "B.Tech / B.E. in Computer Science or a related field, or equivalent experience",
    skills: {
      languages: ["Java", "Go", "Python", "TypeScript"],
      technologies: ["REST APIs", "Microservices", "Docker", "Kafka"],
      frameworks: ["Spring Boot", "Node.js"],
      databases: ["PostgreSQL", "Redis"],
      tools: ["Git", "Jenkins"],
      others: ["System Design", "Problem Solving"],
    },
    keywords: ["backend", "distributed systems", "api"],
    basePackage: [6, 10],
  },
  {
    role: "Frontend Developer",
    summary: "craft fast, accessible web interfaces that our customers love",
    duties: [
      "Build responsive pages and reusable components",
      "Work closely with designers to polish every interaction",
      "Keep bundles small and pages fast on low-end phones",
      "Write unit and end-to-end tests for the user interface",
    ],
    degree: "Bachelor's degree in Computer Science, IT or a related field",
    skills: {
      languages: ["JavaScript", "TypeScript", "HTML", "CSS"],
      technologies: ["Web Performance", "Accessibility", "Responsive Design"],
      frameworks: ["React", "Next.js", "Tailwind CSS"],
      databases: ["IndexedDB"],
      tools: ["Figma", "Vite", "Playwright"],
      others: ["Attention to Detail"],
    },
    keywords: ["frontend", "ui", "web"],
    basePackage: [5, 9],
  },
  {
    role: "Full Stack Developer",
    summary: "ship complete features across the web app, the API and the database",
    duties: [
      "Build features end to end, from schema to screen",
      "Automate deployments and keep the CI pipeline green",
      "Talk to customers to understand what they need",
      "Mentor interns and junior developers",
    ],
    degree: "B.Tech / MCA or equivalent practical experience",
    skills: {
      languages: ["TypeScript", "JavaScript", "Python"],
      technologies: ["GraphQL", "REST APIs", "AWS"],
      frameworks: ["React", "Express", "Django"],
      databases: ["MongoDB", "PostgreSQL"],
      tools: ["Git", "Docker", "Postman"],
      others: ["Ownership", "Communication"],
    },
    keywords: ["full stack", "mern", "startup"],
    basePackage: [6, 11],
  },
  {
    role: "Data Scientist",
    summary: "turn large data sets into models that drive product decisions",
    duties: [
      "Build and validate predictive models",
      "Design experiments and explain their results to leadership",
      "Work with data engineers to bring models to production",
      "Track model quality after launch",
    ],
    degree: "B.Tech / M.Sc. / M.Tech in Statistics, Mathematics, Computer Science or similar",
    skills: {
      languages: ["Python", "R", "SQL"],
      technologies: ["Machine Learning", "Statistics", "A/B Testing"],
      frameworks: ["scikit-learn", "PyTorch", "pandas"],
      databases: ["BigQuery", "Snowflake"],
      tools: ["Jupyter", "Tableau"],
      others: ["Storytelling with Data"],
    },
    keywords: ["data science", "ml", "analytics"],
    basePackage: [8, 14],
  },
  {
    role: "Data Analyst",
    summary: "answer business questions with clean data and clear dashboards",
    duties: [
      "Write SQL to explore sales, marketing and product data",
      "Build dashboards that teams check every morning",
      "Find trends and explain them in plain language",
      "Improve data quality with the engineering team",
    ],
    degree: "Any graduate degree with strong numerical skills",
    skills: {
      languages: ["SQL", "Python"],
      technologies: ["Data Visualisation", "ETL"],
      frameworks: ["pandas"],
      databases: ["MySQL", "PostgreSQL"],
      tools: ["Power BI", "Excel", "Looker"],
      others: ["Business Acumen", "Communication"],
    },
    keywords: ["data analysis", "sql", "dashboards"],
    basePackage: [4, 7],
  },
  {
    role: "DevOps Engineer",
    summary: "keep our platform fast, secure and always available",
    duties: [
      "Run Kubernetes clusters across several regions",
      "Automate infrastructure with code and review every change",
      "Improve build times and deployment safety",
      "Take part in a fair on-call rotation",
    ],
    degree: "B.E. / B.Tech in any engineering discipline",
    skills: {
      languages: ["Bash", "Python", "Go"],
      technologies: ["Kubernetes", "AWS", "Linux", "CI/CD"],
      frameworks: ["Helm"],
      databases: ["PostgreSQL"],
      tools: ["Terraform", "Prometheus", "Grafana", "GitHub Actions"],
      others: ["Incident Response"],
    },
    keywords: ["devops", "cloud", "sre", "infrastructure"],
    basePackage: [7, 12],
  },
  {
    role: "Android Developer",
    summary: "build the Android app used daily by customers across India",
    duties: [
      "Build smooth, battery-friendly features in Kotlin",
      "Make the app work well on slow networks and older phones",
      "Write unit and UI tests",
      "Ship releases every two weeks",
    ],
    degree: "B.Tech / BCA / MCA in Computer Science or related field",
    skills: {
      languages: ["Kotlin", "Java"],
      technologies: ["Android SDK", "Firebase", "REST APIs"],
      frameworks: ["Jetpack Compose", "Retrofit"],
      databases: ["SQLite", "Room"],
      tools: ["Android Studio", "Git"],
      others: ["Material Design"],
    },
    keywords: ["android", "mobile", "kotlin"],
    basePackage: [5, 10],
  },
  {
    role: "iOS Developer",
    summary: "make our iPhone app fast, polished and reliable",
    duties: [
      "Develop new features in Swift and SwiftUI",
      "Profile and fix performance issues",
      "Work with designers on animations and details",
      "Automate builds and App Store releases",
    ],
    degree: "Bachelor's degree in Computer Science or equivalent experience",
    skills: {
      languages: ["Swift", "Objective-C"],
      technologies: ["iOS SDK", "Core Data", "Push Notifications"],
      frameworks: ["SwiftUI", "UIKit"],
      databases: ["SQLite"],
      tools: ["Xcode", "Fastlane"],
      others: ["Human Interface Guidelines"],
    },
    keywords: ["ios", "mobile", "swift"],
    basePackage: [6, 11],
  },
  {
    role: "Machine Learning Engineer",
    summary: "train and serve models for speech, vision and recommendations",
    duties: [
      "Train models on large data sets using GPUs",
      "Serve models with low latency in production",
      "Build pipelines for data labelling and evaluation",
      "Read papers and turn good ideas into features",
    ],
    degree: "B.Tech / M.Tech / PhD in Computer Science, AI or a related field",
    skills: {
      languages: ["Python", "C++"],
      technologies: ["Deep Learning", "NLP", "Computer Vision", "MLOps"],
      frameworks: ["PyTorch", "TensorFlow", "Hugging Face Transformers"],
      databases: ["Vector Databases", "PostgreSQL"],
      tools: ["Docker", "MLflow", "Weights & Biases"],
      others: ["Research Mindset"],
    },
    keywords: ["ai", "machine learning", "deep learning", "llm"],
    basePackage: [10, 18],
  },
  {
    role: "QA Automation Engineer",
    summary: "make sure every release works before customers see it",
    duties: [
      "Write automated tests for web, mobile and APIs",
      "Plan test coverage with developers for each feature",
      "Find, report and track bugs to closure",
      "Keep the test suite fast and free of flaky tests",
    ],
    degree: "B.E. / B.Tech / B.Sc. in Computer Science or related field",
    skills: {
      languages: ["Java", "JavaScript", "Python"],
      technologies: ["Test Automation", "API Testing"],
      frameworks: ["Selenium", "Cypress", "TestNG"],
      databases: ["MySQL"],
      tools: ["Postman", "JIRA", "Jenkins"],
      others: ["Analytical Thinking"],
    },
    keywords: ["qa", "testing", "automation"],
    basePackage: [4, 8],
  },
  {
    role: "Product Manager",
    summary: "decide what we build next and why, together with engineering and design",
    duties: [
      "Talk to customers every week and turn insight into plans",
      "Write clear product requirements and success metrics",
      "Prioritise the roadmap with engineering and design",
      "Launch features and measure their impact",
    ],
    degree: "Any bachelor's degree; an MBA or engineering degree is a plus",
    skills: {
      languages: ["SQL"],
      technologies: ["Product Analytics", "A/B Testing"],
      frameworks: ["Agile", "Scrum"],
      databases: [],
      tools: ["JIRA", "Mixpanel", "Figma", "Notion"],
      others: ["Stakeholder Management", "Communication", "Prioritisation"],
    },
    keywords: ["product management", "roadmap", "strategy"],
    basePackage: [12, 20],
  },
  {
    role: "UI/UX Designer",
    summary: "design simple, beautiful experiences for web and mobile",
    duties: [
      "Run user research and usability tests",
      "Create wireframes, prototypes and final designs",
      "Maintain and grow our design system",
      "Work with developers until the design ships",
    ],
    degree: "Degree or diploma in Design, HCI or a related field, or a strong portfolio",
    skills: {
      languages: ["HTML", "CSS"],
      technologies: ["Prototyping", "User Research", "Design Systems"],
      frameworks: [],
      databases: [],
      tools: ["Figma", "Adobe XD", "Illustrator"],
      others: ["Empathy", "Visual Design"],
    },
    keywords: ["design", "ux", "ui", "figma"],
    basePackage: [5, 9],
  },
  {
    role: "Digital Marketing Executive",
    summary: "grow our audience through search, social and email campaigns",
    duties: [
      "Plan and run paid campaigns on Google and Meta",
      "Improve search rankings with content and technical SEO",
      "Track campaign performance and report weekly",
      "Work with designers and writers on creatives",
    ],
    degree: "BBA / MBA in Marketing or any graduate with campaign experience",
    skills: {
      languages: [],
      technologies: ["SEO", "SEM", "Email Marketing", "Social Media Marketing"],
      frameworks: [],
      databases: [],
      tools: ["Google Analytics", "Google Ads", "HubSpot", "Canva"],
      others: ["Copywriting", "Creativity"],
    },
    keywords: ["marketing", "digital marketing", "seo", "growth"],
    basePackage: [3, 6],
  },
  {
    role: "Cloud Engineer",
    summary: "design and run secure, cost-efficient cloud infrastructure",
    duties: [
      "Migrate workloads from data centres to the cloud",
      "Set up networking, identity and monitoring",
      "Reduce cloud costs without hurting reliability",
      "Document and automate everything you build",
    ],
    degree: "B.Tech / B.E. with cloud certifications preferred",
    skills: {
      languages: ["Python", "Bash"],
      technologies: ["AWS", "Azure", "Google Cloud", "Networking"],
      frameworks: ["Serverless Framework"],
      databases: ["DynamoDB", "Aurora"],
      tools: ["Terraform", "Ansible", "CloudWatch"],
      others: ["Cost Optimisation"],
    },
    keywords: ["cloud", "aws", "azure", "infrastructure"],
    basePackage: [7, 12],
  },
  {
    role: "Cybersecurity Analyst",
    summary: "detect and stop attacks on our systems and our customers",
    duties: [
      "Monitor alerts and investigate suspicious activity",
      "Run vulnerability scans and follow up on fixes",
      "Respond to incidents and write clear reports",
      "Train colleagues on security habits",
    ],
    degree: "B.Tech in Computer Science or Information Security; CEH or Security+ a plus",
    skills: {
      languages: ["Python", "PowerShell"],
      technologies: ["SIEM", "Network Security", "Threat Hunting"],
      frameworks: ["MITRE ATT&CK", "OWASP"],
      databases: ["Elasticsearch"],
      tools: ["Splunk", "Wireshark", "Burp Suite", "Nmap"],
      others: ["Incident Response"],
    },
    keywords: ["security", "cybersecurity", "soc"],
    basePackage: [6, 10],
  },
  {
    role: "Business Analyst",
    summary: "bridge business teams and engineering with clear, measurable requirements",
    duties: [
      "Gather requirements from business stakeholders",
      "Map processes and find what to automate",
      "Write user stories and acceptance criteria",
      "Track delivery and measure outcomes",
    ],
    degree: "B.Com / BBA / B.Tech; MBA preferred",
    skills: {
      languages: ["SQL"],
      technologies: ["Process Mapping", "Requirements Analysis"],
      frameworks: ["Agile"],
      databases: ["MySQL"],
      tools: ["Excel", "JIRA", "Confluence", "Power BI"],
      others: ["Communication", "Documentation"],
    },
    keywords: ["business analysis", "requirements", "stakeholders"],
    basePackage: [5, 9],
  },
  {
    role: "Embedded Systems Engineer",
    summary: "write firmware for the devices that power our hardware products",
    duties: [
      "Develop firmware for microcontrollers and sensors",
      "Bring up new boards with the hardware team",
      "Debug timing and power issues with oscilloscopes and logic analysers",
      "Write drivers and over-the-air update code",
    ],
    degree: "B.E. / B.Tech in Electronics, Electrical or Computer Engineering",
    skills: {
      languages: ["C", "C++", "Rust"],
      technologies: ["RTOS", "IoT", "CAN", "I2C / SPI"],
      frameworks: ["FreeRTOS", "Zephyr"],
      databases: [],
      tools: ["Keil", "JTAG Debuggers", "Oscilloscope"],
      others: ["Hardware Debugging"],
    },
    keywords: ["embedded", "firmware", "iot", "electronics"],
    basePackage: [5, 9],
  },
  {
    role: "Content Writer",
    summary: "write clear, useful articles, guides and product copy",
    duties: [
      "Write blog posts, guides and newsletters every week",
      "Research topics and interview experts",
      "Edit drafts for clarity, tone and accuracy",
      "Optimise content for search with the marketing team",
    ],
    degree: "Any graduate degree; English, Journalism or Mass Communication preferred",
    skills: {
      languages: [],
      technologies: ["SEO Writing", "Content Strategy"],
      frameworks: [],
      databases: [],
      tools: ["WordPress", "Google Docs", "Grammarly"],
      others: ["Research", "Editing", "Storytelling"],
    },
    keywords: ["content", "writing", "marketing", "blog"],
    basePackage: [3, 5],
  },
  {
    role: "Sales Development Representative",
    summary: "start conversations with companies that need our product",
    duties: [
      "Research target accounts and reach out by email and phone",
      "Qualify leads and book demos for account executives",
      "Keep the CRM accurate and up to date",
      "Share customer feedback with the product team",
    ],
    degree: "Any graduate degree",
    skills: {
      languages: [],
      technologies: ["B2B Sales", "Lead Generation"],
      frameworks: [],
      databases: [],
      tools: ["Salesforce", "LinkedIn Sales Navigator", "HubSpot"],
      others: ["Negotiation", "Communication", "Persistence"],
    },
    keywords: ["sales", "saas", "business development"],
    basePackage: [4, 7],
  },
  {
    role: "Site Reliability Engineer",
    summary: "make our systems reliable, observable and quick to recover",
    duties: [
      "Define and track service level objectives",
      "Automate away repetitive operational work",
      "Lead blameless post-incident reviews",
      "Tune databases and caches under heavy load",
    ],
    degree: "B.Tech / B.E. in Computer Science or equivalent experience",
    skills: {
      languages: ["Go", "Python"],
      technologies: ["Kubernetes", "Linux", "Observability"],
      frameworks: ["OpenTelemetry"],
      databases: ["PostgreSQL", "Cassandra"],
      tools: ["Prometheus", "Grafana", "PagerDuty"],
      others: ["Incident Management"],
    },
    keywords: ["sre", "reliability", "devops", "on-call"],
    basePackage: [9, 15],
  },
];

const LOCATIONS = [
  "Bengaluru, Karnataka",
  "Hyderabad, Telangana",
  "Pune, Maharashtra",
  "Mumbai, Maharashtra",
  "Chennai, Tamil Nadu",
  "Gurugram, Haryana",
  "Noida, Uttar Pradesh",
  "New Delhi, Delhi",
  "Kolkata, West Bengal",
  "Ahmedabad, Gujarat",
  "Kochi, Kerala",
  "Jaipur, Rajasthan",
  "Remote",
  "Remote (India)",
  "Hybrid - Bengaluru, Karnataka",
] as const;

const PERKS = [
  "Health insurance for you and your family",
  "A yearly learning budget for books, courses and conferences",
  "Flexible working hours",
  "Hybrid work with two office days a week",
  "Employee stock options",
  "Free lunch and snacks in the office",
  "A new laptop of your choice",
  "Paid parental leave",
] as const;

/** Levels of people still studying: their openings are internships. */
const STUDENT_LEVELS: ReadonlySet<Experience> = new Set(["intern", "2027 passout"]);
/** The employment types of every other level, Full-Time most often. */
const GRADUATE_TYPES: readonly EmploymentType[] = [
  "Full-Time",
  "Full-Time",
  "Full-Time",
  "Part-Time",
  "Contract",
  "Freelance",
];

/** How much more than the entry package each experience level earns. */
const EXPERIENCE_FACTOR: Record<Experience, number> = {
  "0-1": 1,
  "1-2": 1.3,
  "2-3": 1.6,
  "3+": 2,
  "4+": 2.3,
  "5+": 2.7,
  "6+": 3.1,
  intern: 0,
  "2026 passout": 0.9,
  "2025 passout": 1,
  "2027 passout": 0,
};

/** A small seeded generator (mulberry32), so the demo set is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.floor(random() * list.length)];

/** A few entries of `list`, in their original order, at least one when the list has any. */
function some<T>(random: () => number, list: readonly T[]): T[] {
  const chosen = list.filter(() => random() < 0.7);
  return chosen.length || list.length === 0 ? chosen : [list[0]];
}

function packageText(template: RoleTemplate, experience: Experience, type: EmploymentType) {
  if (type === "Internship" || EXPERIENCE_FACTOR[experience] === 0) {
    return `${10 + 5 * Math.round(template.basePackage[0] / 2)}k per month stipend`;
  }
  const factor = EXPERIENCE_FACTOR[experience];
  const low = Math.round(template.basePackage[0] * factor);
  const high = Math.max(low + 2, Math.round(template.basePackage[1] * factor));
  if (type === "Freelance" || type === "Contract") return `${low}-${high} LPA (pro rata)`;
  return `${low}-${high} LPA`;
}

const slugify = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/-$/, "");

export interface JobPlacement {
  status: JobStatus;
  datePosted: Date;
  movedToDumpAt: Date | null;
  experience?: Experience;
  employmentType?: EmploymentType;
}

/**
 * One complete, realistic job (everything but `jobId`). `serial` makes the hiring link unique; the
 * rest is drawn from `random`.
 */
export function generateJob(
  random: () => number,
  serial: number,
  placement: JobPlacement,
): Omit<Job, "jobId"> {
  const company = pick(random, COMPANIES);
  const template = pick(random, ROLES);
  const location = pick(random, LOCATIONS);
  const experience = placement.experience ?? pick(random, EXPERIENCE_OPTIONS);
  const employmentType = placement.employmentType ??
    (STUDENT_LEVELS.has(experience) ? "Internship" : pick(random, GRADUATE_TYPES));
  const duties = some(random, template.duties);
  const perks = some(random, PERKS).slice(0, 4);
  const description = [
    `${company.name} ${company.pitch}. We are looking for a ${template.role} to ${template.summary}.`,
    `What you will do:\n${duties.map((duty) => `- ${duty}`).join("\n")}`,
    `Why ${company.name}:\n${perks.map((perk) => `- ${perk}`).join("\n")}`,
    location.startsWith("Remote")
      ? "This is a remote role; you will meet the team in person twice a year."
      : `You will work from our ${location.split(",")[0].replace("Hybrid - ", "")} office.`,
  ].join("\n\n");
  const skills = Object.fromEntries(
    Object.entries(template.skills).map(([group, list]) => [group, some(random, list)]),
  ) as unknown as Skills;
  const created = placement.datePosted.toISOString();
  return {
    _id: newId(placement.datePosted),
    companyName: company.name,
    role: template.role,
    location,
    experience,
    employmentType,
    description,
    requiredDegree: template.degree,
    hiringLink: `https://careers.${company.slug}.example/jobs/${slugify(template.role)}-${serial}`,
    ...(random() < 0.85 ? { estPackage: packageText(template, experience, employmentType) } : {}),
    skills,
    keywords: some(random, template.keywords),
    status: placement.status,
    datePosted: created,
    movedToDumpAt: placement.movedToDumpAt?.toISOString() ?? null,
    createdAt: created,
    updatedAt: (placement.movedToDumpAt ?? placement.datePosted).toISOString(),
  };
}

/** Days in dump of the demo's dump jobs: the chip's plain, yellow (15+) and red (25+) states. */
export const DEMO_DUMP_DAYS = [1, 3, 5, 9, 12, 16, 19, 22, 25, 27, 28] as const;
const DEMO_ACTIVE = 60;
const DEMO_INACTIVE = 8;
const DEMO_ANALYTICS_DAYS = 90;

/**
 * The demo jobs, placed in time relative to `now`. Hiring links are numbered from `firstSerial`, so
 * a second demo set in one database (`deno task seed --force`) never repeats an active job's link.
 */
export function demoJobs(now: Date, firstSerial = 1): Omit<Job, "jobId">[] {
  const random = seededRandom(20_240_601);
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY_MS);
  const jobs: Omit<Job, "jobId">[] = [];
  for (let i = 0; i < DEMO_ACTIVE; i++) {
    const experience = EXPERIENCE_OPTIONS[i % EXPERIENCE_OPTIONS.length];
    // Posted at least a day before the move to dump, so the first hourly lifecycle run leaves them.
    const hoursAgo = (i * 37) % ((DAYS_ACTIVE_BEFORE_DUMP - 1) * 24 - 1) + random();
    jobs.push(generateJob(random, firstSerial + jobs.length, {
      status: "active",
      datePosted: at(hoursAgo / 24),
      movedToDumpAt: null,
      experience,
      employmentType: STUDENT_LEVELS.has(experience)
        ? "Internship"
        : GRADUATE_TYPES[i % GRADUATE_TYPES.length],
    }));
  }
  for (const days of DEMO_DUMP_DAYS) {
    const moved = at(days);
    jobs.push(generateJob(random, firstSerial + jobs.length, {
      status: "dump",
      datePosted: new Date(moved.getTime() - (DAYS_ACTIVE_BEFORE_DUMP + random()) * DAY_MS),
      movedToDumpAt: moved,
    }));
  }
  for (let i = 0; i < DEMO_INACTIVE; i++) {
    const moved = at(DAYS_IN_DUMP_BEFORE_INACTIVE + 1 + i * 4);
    jobs.push(generateJob(random, firstSerial + jobs.length, {
      status: "inactive",
      datePosted: new Date(moved.getTime() - DAYS_ACTIVE_BEFORE_DUMP * DAY_MS),
      movedToDumpAt: moved,
    }));
  }
  // Oldest first, so jobIds grow with the posting date as they would have in real use.
  return jobs.sort((a, b) => Date.parse(a.datePosted) - Date.parse(b.datePosted));
}

/** What seeding needs of the app: the database, its clock and time zone, and the job store. */
export interface SeedTarget {
  kv: Deno.Kv;
  now: () => Date;
  jobs: JobStore;
  config: { TIMEZONE: string };
}

/**
 * Writes the demo set and 90 days of analytics history into the database; the jobs' running view
 * and click totals come from that history.
 */
export async function seedDemo(services: SeedTarget): Promise<Job[]> {
  const now = services.now();
  const { lastJobNumber } = await services.jobs.meta();
  const jobs = await services.jobs.importJobs(demoJobs(now, lastJobNumber + 1));
  await seedAnalyticsHistory(services.kv, {
    now,
    days: DEMO_ANALYTICS_DAYS,
    jobs,
    timeZone: services.config.TIMEZONE,
  });
  return jobs;
}

/**
 * Seeds the demo set only into a database that has never held a job (so jobs an admin deleted do
 * not come back at the next start); true when it seeded. The claim is one atomic write, so of
 * several processes starting on one empty database only one seeds.
 */
export async function seedDemoIfEmpty(services: SeedTarget): Promise<boolean> {
  if ((await services.jobs.statusCounts()).all > 0) return false;
  const claimed = await retrying(async () =>
    (await services.kv.atomic()
      .check({ key: keys.demoSeed(), versionstamp: null })
      .check({ key: keys.jobsMeta(), versionstamp: null })
      .set(keys.demoSeed(), services.now().toISOString())
      .commit()).ok
  );
  if (!claimed) return false;
  await seedDemo(services);
  return true;
}
