/**
 * The demo data's tables of fictional companies, the places they hire in and the perks they offer
 * (the role templates are in roles.ts). Only the demo generator reads them.
 */

export interface Company {
  name: string;
  /** Used for the hiring link host: https://careers.<slug>.example/... */
  slug: string;
  pitch: string;
}

export const COMPANIES: readonly Company[] = [
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

export const LOCATIONS = [
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

export const PERKS = [
  "Health insurance for you and your family",
  "A yearly learning budget for books, courses and conferences",
  "Flexible working hours",
  "Hybrid work with two office days a week",
  "Employee stock options",
  "Free lunch and snacks in the office",
  "A new laptop of your choice",
  "Paid parental leave",
] as const;
