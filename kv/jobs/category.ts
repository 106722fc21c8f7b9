/**
 * The role category a job is placed in, read from its role and skills: the role's words first
 * (the most telling), the skills when the role says nothing a rule knows. The rules run in order,
 * the narrower before the broader: "Data Engineer" is Data & AI before "Engineer" is Engineering.
 * A title's own part comes before what follows it ("Software Engineer - Banking", "Web Developer for
 * School" name the team or the client), and a title whose last word is an engineer's is placed
 * among the engineers' categories only: a Principal Engineer teaches no one, a Growth Engineer
 * runs no campaign.
 */
import type { RoleCategory } from "../job-fields.ts";

const RULES: [RoleCategory, RegExp][] = [
  // A coder of diagnoses codes no software.
  ["Healthcare", /\bmedical (coder|coding|billing|transcription(ist)?)\b/],
  // Titles holding a word of a broader rule below: a security guard guards no network, data
  // entry is office work, a design engineer engineers, an account manager sells.
  [
    "Operations",
    /\b(security guard|guard|watchman|housekeeping|facility|facilities|office (assistant|boy)|peon|receptionist|front (office|desk)|back office|data entry|mis executive|(?<!device )driver|delivery (boy|executive|partner|associate)|warehouse|store ?keeper|production (supervisor|manager|operator|executive|planner|in-?charge)|plant|manufacturing|quality (control|inspector)|machine operator|cnc)\b/,
  ],
  [
    "Engineering",
    /\b(design engineer|vlsi|asic|fpga|rtl|hardware|mechanical|civil|electrical|electronics|autocad|draftsman|cad|quantity surveyor|sap|salesforce|servicenow)\b/,
  ],
  [
    "Sales",
    /\b(account (executive|manager)|key account|relationship manager|loan officer|insurance (advisor|agent)|branch manager|(area|territory|regional) (sales )?manager|telecaller|telesales|medical (representative|rep)|sales (executive|officer|associate|representative|manager|head|lead))\b/,
  ],
  // Titles of the head of technology and of a technical staff: builders, whatever the words.
  ["Engineering", /\b(cto|chief technology officer|member of technical staff)\b/],
  ["Security", /\b(security|cyber ?security|infosec|penetration|soc analyst|ethical hack\w*)\b/],
  ["QA & Testing", /\b(qa|quality assurance|test(ing|er)?|sdet|automation tester)\b/],
  [
    "DevOps & Cloud",
    /\b(devops|dev ops|sre|site reliability|cloud|platform engineer|infrastructure|kubernetes|aws|azure|gcp|system administrator|sysadmin|network engineer|dba|database administrator)\b/,
  ],
  [
    "Data & AI",
    /\b(data|machine learning|ml|ai|artificial intelligence|deep learning|nlp|computer vision|analytics|bi|business intelligence|statistician|llm|scientist)\b/,
  ],
  [
    "Design",
    /\b(designer|design|ui|ux|ui\/ux|graphic|illustrator|animator|visual|creative director|artist|motion graphics|3d|photographer|videographer|video editor)\b/,
  ],
  [
    "Product",
    /\b(product manager|product owner|product management|product lead|pm|scrum master|agile coach)\b/,
  ],
  [
    "Healthcare",
    /\b(nurse|nursing|doctor|physician|pharmacist|pharmacovigilance|medical|clinical|healthcare|hospital|dentist|physiotherapist|lab technician|radiologist|dietitian|nutritionist|fitness|yoga|ward boy|caregiver|dental|optometr\w*|radiolog\w*|patholog\w*|phlebotom\w*)\b/,
  ],
  [
    "Education",
    /\b(teacher|tutor|faculty|lecturer|professor|educator|trainer|teaching|academic|curriculum|instructor|principal|librarian|school|pgt|tgt|prt)\b/,
  ],
  [
    "Finance & Accounting",
    /\b(account(ant|ing|s)?|finance|financial|audit(or)?|tax|ca|chartered accountant|bookkeep\w*|payroll|treasury|credit (analyst|manager|officer|risk|controller)|investment|banking|actuar\w*|risk analyst|underwrit\w*|collections?|tally|gst|billing)\b/,
  ],
  [
    "HR",
    /\b(hr|human resources?|recruit(er|ment|ing)?|talent acquisition|people (operations|partner)|hrbp)\b/,
  ],
  ["Legal", /\b(legal|lawyer|advocate|counsel|paralegal|compliance|company secretary)\b/],
  // A school's or a course's admissions counsellor sells its seats.
  ["Sales", /\badmissions? (counsell?or|officer|executive)|counsell?or \(admissions?\)/],
  [
    "Hospitality",
    /\b(chef|cook|commis|kitchen|steward|waiter|waitress|bartender|barista|hotel|restaurant|f&b|food (and|&) beverage|banquet|hospitality)\b/,
  ],
  [
    "Skilled Trades",
    /\b(electrician|plumber|carpenter|welder|fitter|mechanic|machinist|mason|painter|technician|tailor|ac repair)\b/,
  ],
  [
    "Content & Writing",
    /\b(writer|content|copywriter|editor|journalist|technical writer|proofreader|translator)\b/,
  ],
  [
    "Marketing",
    /\b(marketing|seo|sem|social media|brand|growth|digital marketing|campaign|performance marketing|public relations|pr|events?)\b/,
  ],
  [
    "Sales",
    /\b(sales|business development|bde|bdr|sdr|account (executive|manager)|inside sales|pre-?sales|telesales|relationship manager)\b/,
  ],
  [
    "Customer Support",
    /\b(customer (support|service|success|care)|client servic(e|ing)|support|help ?desk|call cent(er|re)|bpo|technical support|voice process)\b/,
  ],
  [
    "Engineering",
    /(?<!\w)(engineer(ing)?|developer|programmer|architect|sde|swe|software|frontend|front end|backend|back end|full ?stack|mobile|android|ios|embedded|firmware|coder|tech lead|java|python|php|golang|ruby|node(\.?js)?|react(\.?js)?|angular|\.net|dotnet|c\+\+|c#|javascript|typescript|flutter|kotlin|swift)(?![\w+#])/,
  ],
  [
    "Operations",
    /\b(operations?|ops|logistics|supply chain|procurement|purchase|admin(istrative)?|administrator|office manager|delivery manager|business analyst|analyst|project manager|program manager|coordinator|executive assistant|store manager)\b/,
  ],
];

/** The categories of those who build: where a title ending in Engineer or Developer belongs. */
const BUILDERS = new Set<RoleCategory>([
  "Operations",
  "Engineering",
  "Sales",
  "Security",
  "QA & Testing",
  "DevOps & Cloud",
  "Data & AI",
  "Customer Support",
]);
const BUILDER_TITLE = /\b(engineer|developer|programmer|architect|sde|swe)s?(\s+(i{1,3}|iv|\d))?$/;
/** Where a title's own part ends: "Software Engineer - Banking", "Developer (Payments)". */
const TITLE_END = /\s+[-–—|@]\s+|\s*[(,[]|\s+(for|at|with)\s+/;

function ruleFor(text: string): RoleCategory | undefined {
  const lower = text.toLowerCase().trim();
  const builder = BUILDER_TITLE.test(lower);
  return RULES.find(([category, pattern]) =>
    (!builder || BUILDERS.has(category)) && pattern.test(lower)
  )?.[0];
}

/** The category a job's role and skills place it in; Other when no rule knows either. */
export function categoryOf(role: string, skills: readonly string[]): RoleCategory {
  const title = role.split(TITLE_END)[0];
  return (title && ruleFor(title)) || ruleFor(role) || ruleFor(skills.join(" ; ")) || "Other";
}
