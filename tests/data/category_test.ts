/** Role categories: every demo role and the usual titles land in the category a seeker expects. */
import assert from "node:assert/strict";
import { categoryOf } from "../../kv/jobs/category.ts";
import { workModeOf } from "../../kv/jobs/derived.ts";
import { ROLES } from "../../kv/demo/roles.ts";

const TITLES: [string, string][] = [
  ["Software Engineer", "Engineering"],
  ["Senior Backend Developer", "Engineering"],
  ["Full Stack Developer", "Engineering"],
  ["Android Developer", "Engineering"],
  ["iOS Developer", "Engineering"],
  ["Embedded Systems Engineer", "Engineering"],
  ["Data Scientist", "Data & AI"],
  ["Data Analyst", "Data & AI"],
  ["Data Engineer", "Data & AI"],
  ["Machine Learning Engineer", "Data & AI"],
  ["AI Research Intern", "Data & AI"],
  ["UI/UX Designer", "Design"],
  ["Graphic Designer", "Design"],
  ["Product Manager", "Product"],
  ["Product Owner", "Product"],
  ["QA Automation Engineer", "QA & Testing"],
  ["Manual Tester", "QA & Testing"],
  ["SDET", "QA & Testing"],
  ["DevOps Engineer", "DevOps & Cloud"],
  ["Site Reliability Engineer", "DevOps & Cloud"],
  ["Cloud Engineer", "DevOps & Cloud"],
  ["Cybersecurity Analyst", "Security"],
  ["Digital Marketing Executive", "Marketing"],
  ["SEO Specialist", "Marketing"],
  ["Sales Development Representative", "Sales"],
  ["Business Development Executive", "Sales"],
  ["Customer Support Executive", "Customer Support"],
  ["Customer Success Manager", "Customer Support"],
  ["Operations Manager", "Operations"],
  ["Business Analyst", "Operations"],
  ["Chartered Accountant", "Finance & Accounting"],
  ["Accounts Executive", "Finance & Accounting"],
  ["HR Executive", "HR"],
  ["Talent Acquisition Specialist", "HR"],
  ["Legal Counsel", "Legal"],
  ["Staff Nurse", "Healthcare"],
  ["Pharmacist", "Healthcare"],
  ["Maths Teacher", "Education"],
  ["Content Writer", "Content & Writing"],
  ["Technical Writer", "Content & Writing"],
  ["Chef", "Hospitality"],
  // Titles holding a word of another category.
  ["Security Guard", "Operations"],
  ["Data Entry Operator", "Operations"],
  ["Delivery Executive", "Operations"],
  ["Production Supervisor", "Operations"],
  ["Account Manager", "Sales"],
  ["Key Account Manager", "Sales"],
  ["Telecaller", "Sales"],
  ["Relationship Manager - Home Loans", "Sales"],
  ["VLSI Design Engineer", "Engineering"],
  ["Mechanical Design Engineer", "Engineering"],
  ["Device Driver Engineer", "Engineering"],
  ["SAP FICO Consultant", "Engineering"],
  ["Penetration Tester", "Security"],
  ["Actuarial Analyst", "Finance & Accounting"],
  ["Credit Analyst", "Finance & Accounting"],
  ["Credit Card Sales Executive", "Sales"],
  ["Research Scientist", "Data & AI"],
  ["Motion Graphics Artist", "Design"],
  ["Video Editor", "Design"],
  ["Scrum Master", "Product"],
  ["Yoga Instructor", "Healthcare"],
  ["School Principal", "Education"],
  ["Event Manager", "Marketing"],
  // A title's own part before the team or client it names; an engineer's title among engineers.
  ["Principal Software Engineer", "Engineering"],
  ["Principal Engineer", "Engineering"],
  ["Software Engineer - Banking", "Engineering"],
  ["Backend Engineer - Tax Platform", "Engineering"],
  ["Backend Developer, Investment Banking", "Engineering"],
  ["Flutter Developer - Healthcare App", "Engineering"],
  ["Web Developer for School", "Engineering"],
  ["Growth Engineer", "Engineering"],
  ["Senior Engineer - Events Platform", "Engineering"],
  ["Content Management System Developer", "Engineering"],
  ["Java Developer - Testing Tools", "Engineering"],
  ["UI Developer", "Engineering"],
  ["Software Development Engineer in Test", "QA & Testing"],
  ["Cloud Sales Executive", "Sales"],
  ["Medical Representative", "Sales"],
  ["Accounts Executive (Tally)", "Finance & Accounting"],
  ["Sales Executive - Field Sales", "Sales"],
  // A language in the title is a developer's; a medical coder codes diagnoses.
  ["Trainee - Java", "Engineering"],
  ["PHP Fresher", "Engineering"],
  [".NET Trainee", "Engineering"],
  ["Medical Coder", "Healthcare"],
  ["Chief Technology Officer", "Engineering"],
  ["CTO", "Engineering"],
  ["Member of Technical Staff", "Engineering"],
  ["Client Servicing Executive", "Customer Support"],
  ["Admission Counsellor", "Sales"],
  ["Office Administrator", "Operations"],
  ["Tally Operator", "Finance & Accounting"],
  ["GST Consultant", "Finance & Accounting"],
  ["Billing Executive", "Finance & Accounting"],
  ["Dental Assistant", "Healthcare"],
  ["Optometrist", "Healthcare"],
  ["Radiology Technician", "Healthcare"],
  ["PGT Maths", "Education"],
  ["TGT English", "Education"],
  ["Chef de Partie", "Hospitality"],
  ["Commis Chef", "Hospitality"],
  ["F&B Steward", "Hospitality"],
  ["Hotel Manager", "Hospitality"],
  ["Electrician", "Skilled Trades"],
  ["Welder", "Skilled Trades"],
  ["Plumber", "Skilled Trades"],
  ["AC Technician", "Skilled Trades"],
  ["Mechanical Engineer", "Engineering"],
  ["Lab Technician", "Healthcare"],
  ["Fitness Trainer", "Healthcare"],
  // A DBA's skills (Oracle Data Guard) guard no gate.
  ["Oracle DBA", "DevOps & Cloud"],
  ["Database Administrator - PostgreSQL", "DevOps & Cloud"],
];

Deno.test("the usual titles land in the category a seeker looks under", () => {
  const wrong = TITLES.filter(([title, category]) => categoryOf(title, []) !== category)
    .map(([title, category]) => `${title}: ${categoryOf(title, [])}, not ${category}`);
  assert.deepEqual(wrong, []);
});

Deno.test("every demo role has a category other than Other", () => {
  for (const { role } of ROLES) assert.notEqual(categoryOf(role, []), "Other", role);
});

Deno.test("a title no rule knows is placed by its skills", () => {
  assert.equal(categoryOf("Associate", ["Python", "Pandas", "Machine Learning"]), "Data & AI");
  assert.equal(categoryOf("Associate", ["Figma", "UX research"]), "Design");
  assert.equal(categoryOf("Associate", []), "Other");
});

Deno.test("work mode from the location: Remote, WFH, Anywhere, Hybrid, else On-site", () => {
  assert.deepEqual(
    [
      "Remote",
      "Remote (India)",
      "Work from home",
      "WFH",
      "Anywhere in India",
      "Hybrid - Pune",
      "Bengaluru (Hybrid)",
      "Pune",
      "Remoteville",
    ].map(workModeOf),
    ["Remote", "Remote", "Remote", "Remote", "Remote", "Hybrid", "Hybrid", "On-site", "On-site"],
  );
});

Deno.test("a location saying a job is not remote is no remote job", () => {
  for (const location of ["Not remote - Pune", "No WFH, Mumbai", "Onsite - Remote not allowed"]) {
    assert.equal(workModeOf(location), "On-site", location);
  }
  assert.equal(workModeOf("Pune / Remote"), "Remote");
});

Deno.test("some days from home or in the office, or partly remote, is hybrid", () => {
  for (
    const location of [
      "Mumbai - 2 days WFH",
      "Bengaluru (3 days WFO)",
      "Partially remote - Pune",
      "Hyderabad, 3 days a week in office",
      "Chennai - 2 days work from home",
    ]
  ) {
    assert.equal(workModeOf(location), "Hybrid", location);
  }
  assert.equal(workModeOf("Noida, 6 days working"), "On-site");
  assert.equal(workModeOf("Gurugram (5 days WFO)"), "On-site");
});
