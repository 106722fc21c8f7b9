/**
 * The pay reader against package texts as postings write them. Each line: the text and how it must
 * be read, `min-max period` in rupees (`_` for an open end), or `null` when it names no pay or is
 * not sure. At least 98% must be read right, and every miss must be a null: never a wrong pay.
 */
import assert from "node:assert/strict";
import { describePay, type Pay, readPay, yearlyTop } from "../../kv/jobs/pay.ts";

const CORPUS: [string, string][] = [
  // Lakhs per annum, the usual way.
  ["8-12 LPA", "800000-1200000 year"],
  ["15 LPA", "1500000-1500000 year"],
  ["3.5 - 5 LPA", "350000-500000 year"],
  ["3.5-5 LPA", "350000-500000 year"],
  ["4-6 LPA", "400000-600000 year"],
  ["6-10 LPA", "600000-1000000 year"],
  ["10-15 LPA", "1000000-1500000 year"],
  ["12 - 18 LPA", "1200000-1800000 year"],
  ["18-25 LPA", "1800000-2500000 year"],
  ["25-35 LPA", "2500000-3500000 year"],
  ["40-60 LPA", "4000000-6000000 year"],
  ["8 LPA", "800000-800000 year"],
  ["8LPA", "800000-800000 year"],
  ["8lpa", "800000-800000 year"],
  ["4.5 LPA", "450000-450000 year"],
  ["4.5LPA", "450000-450000 year"],
  ["3.6 lpa", "360000-360000 year"],
  ["8 - 12 lpa", "800000-1200000 year"],
  ["8 to 12 LPA", "800000-1200000 year"],
  ["8 LPA to 12 LPA", "800000-1200000 year"],
  ["8 LPA - 12 LPA", "800000-1200000 year"],
  ["8LPA-12LPA", "800000-1200000 year"],
  ["8 – 12 LPA", "800000-1200000 year"],
  ["8—12 LPA", "800000-1200000 year"],
  ["₹8-12 LPA", "800000-1200000 year"],
  ["₹ 8-12 LPA", "800000-1200000 year"],
  ["INR 8-12 LPA", "800000-1200000 year"],
  ["Rs 8-12 LPA", "800000-1200000 year"],
  ["Rs. 8-12 LPA", "800000-1200000 year"],
  ["CTC 8-12 LPA", "800000-1200000 year"],
  ["CTC: 8-12 LPA", "800000-1200000 year"],
  ["CTC - 10 LPA", "1000000-1000000 year"],
  ["Salary: 6-8 LPA", "600000-800000 year"],
  ["Package: 7 LPA", "700000-700000 year"],
  ["7 LPA fixed", "700000-700000 year"],
  ["6-10 LPA (pro rata)", "600000-1000000 year"],
  ["12-16 LPA (negotiable)", "1200000-1600000 year"],
  ["8-12 LPA + incentives", "800000-1200000 year"],
  ["6-8 LPA (including variable)", "600000-800000 year"],
  ["12 LPA inclusive of variable", "1200000-1200000 year"],
  ["8 LPA excl. bonus", "800000-800000 year"],
  ["take home 20k pm", "20000-20000 month"],
  ["₹30,000/month net", "30000-30000 month"],
  ["5-7 LPA + benefits", "500000-700000 year"],
  ["approx 9 LPA", "900000-900000 year"],
  ["Around 11 LPA", "1100000-1100000 year"],
  ["~10 LPA", "1000000-1000000 year"],
  ["6 L.P.A", "600000-600000 year"],
  ["6 L.P.A.", "600000-600000 year"],
  ["2.4 - 3 LPA", "240000-300000 year"],
  ["3 - 4.2 LPA", "300000-420000 year"],
  ["22.5 LPA", "2250000-2250000 year"],
  ["1-2 LPA", "100000-200000 year"],
  ["100 LPA", "10000000-10000000 year"],
  ["50-70 LPA", "5000000-7000000 year"],
  // Lakhs spelled out.
  ["20-25 lakhs", "2000000-2500000 year"],
  ["20 - 25 Lakhs", "2000000-2500000 year"],
  ["20-25 Lakh", "2000000-2500000 year"],
  ["5 lakh", "500000-500000 year"],
  ["5 lakhs", "500000-500000 year"],
  ["5 Lakhs per annum", "500000-500000 year"],
  ["5 lakh per annum", "500000-500000 year"],
  ["5 lakh p.a.", "500000-500000 year"],
  ["5 lakh PA", "500000-500000 year"],
  ["5 Lac", "500000-500000 year"],
  ["5 lacs", "500000-500000 year"],
  ["5-6 Lacs", "500000-600000 year"],
  ["5-6 lacs p.a.", "500000-600000 year"],
  ["₹5 lakh - ₹7 lakh", "500000-700000 year"],
  ["Rs 5 lakh to Rs 7 lakh", "500000-700000 year"],
  ["INR 5-7 Lakhs", "500000-700000 year"],
  ["3 to 5 lakhs per year", "300000-500000 year"],
  ["3-5 lakh/year", "300000-500000 year"],
  ["3-5 lakh/yr", "300000-500000 year"],
  ["3-5 lakh yearly", "300000-500000 year"],
  ["3-5 lakhs annually", "300000-500000 year"],
  ["12 lakhs CTC", "1200000-1200000 year"],
  ["CTC 12 lakhs", "1200000-1200000 year"],
  ["CTC: 12 Lakh", "1200000-1200000 year"],
  ["upto 12 lakhs", "_-1200000 year"],
  ["up to 12 lakh", "_-1200000 year"],
  ["Up to 12 Lakhs per annum", "_-1200000 year"],
  ["4.5 lakhs", "450000-450000 year"],
  ["4.5 Lakh p.a", "450000-450000 year"],
  ["7 Lks", "700000-700000 year"],
  // L as a unit.
  ["₹6L - ₹9L", "600000-900000 year"],
  ["₹6L-₹9L", "600000-900000 year"],
  ["6L - 9L", "600000-900000 year"],
  ["6L-9L", "600000-900000 year"],
  ["6-9L", "600000-900000 year"],
  ["₹6-9L", "600000-900000 year"],
  ["₹6 L - ₹9 L", "600000-900000 year"],
  ["6L", "600000-600000 year"],
  ["₹12L", "1200000-1200000 year"],
  ["INR 12L", "1200000-1200000 year"],
  ["12L CTC", "1200000-1200000 year"],
  ["₹12L p.a.", "1200000-1200000 year"],
  ["₹12L per annum", "1200000-1200000 year"],
  ["₹4.5L - ₹6L", "450000-600000 year"],
  ["₹90K - ₹1.2L", "null"],
  // Crores.
  ["1.2 Cr", "12000000-12000000 year"],
  ["1 Cr", "10000000-10000000 year"],
  ["1-1.5 Cr", "10000000-15000000 year"],
  ["₹1 Cr - ₹1.5 Cr", "10000000-15000000 year"],
  ["1.5 crore", "15000000-15000000 year"],
  ["2 crores", "20000000-20000000 year"],
  ["1.2 Cr per annum", "12000000-12000000 year"],
  ["INR 1.2 Cr", "12000000-12000000 year"],
  ["1.2 cr CTC", "12000000-12000000 year"],
  ["Up to 1.2 Cr", "_-12000000 year"],
  // Full rupee figures, yearly.
  ["₹12,00,000 - ₹18,00,000 per annum", "1200000-1800000 year"],
  ["₹12,00,000 - ₹18,00,000", "1200000-1800000 year"],
  ["₹12,00,000 - 18,00,000", "1200000-1800000 year"],
  ["Rs. 12,00,000 - 18,00,000 p.a.", "1200000-1800000 year"],
  ["INR 12,00,000 to 18,00,000", "1200000-1800000 year"],
  ["₹1,200,000 - ₹1,800,000", "1200000-1800000 year"],
  ["₹1200000-₹1800000", "1200000-1800000 year"],
  ["1200000 - 1800000 INR", "1200000-1800000 year"],
  ["1200000-1800000 per annum", "1200000-1800000 year"],
  ["₹6,00,000", "600000-600000 year"],
  ["₹6,00,000 per annum", "600000-600000 year"],
  ["₹6,00,000 p.a.", "600000-600000 year"],
  ["₹6,00,000/year", "600000-600000 year"],
  ["₹6,00,000 per year", "600000-600000 year"],
  ["₹6,00,000 a year", "600000-600000 year"],
  ["Rs 600000 per annum", "600000-600000 year"],
  ["Rs.600000 PA", "600000-600000 year"],
  ["INR 6,00,000 annual", "600000-600000 year"],
  ["600000 per annum", "600000-600000 year"],
  ["600000 INR per annum", "600000-600000 year"],
  ["₹ 4,80,000 - ₹ 6,00,000 / year", "480000-600000 year"],
  ["CTC up to 6 LPA", "_-600000 year"],
  ["Upto 6 LPA", "_-600000 year"],
  ["up to 6 LPA", "_-600000 year"],
  ["Max 6 LPA", "_-600000 year"],
  ["Maximum 6 LPA", "_-600000 year"],
  ["Up to ₹6,00,000 per annum", "_-600000 year"],
  ["Starting 4 LPA", "400000-_ year"],
  ["Starting from 4 LPA", "400000-_ year"],
  ["From 4 LPA", "400000-_ year"],
  ["4 LPA onwards", "400000-_ year"],
  ["4+ LPA", "400000-_ year"],
  ["Minimum 4 LPA", "400000-_ year"],
  ["4 LPA and above", "400000-_ year"],
  ["600k per annum", "600000-600000 year"],
  ["600K-900K per year", "600000-900000 year"],
  ["₹600K - ₹900K a year", "600000-900000 year"],
  // Monthly.
  ["₹25,000/month", "25000-25000 month"],
  ["₹25,000 / month", "25000-25000 month"],
  ["₹25,000 per month", "25000-25000 month"],
  ["₹25,000 a month", "25000-25000 month"],
  ["₹25,000 p.m.", "25000-25000 month"],
  ["₹25,000 pm", "25000-25000 month"],
  ["₹25,000/mo", "25000-25000 month"],
  ["₹25,000 monthly", "25000-25000 month"],
  ["Rs. 25000 per month", "25000-25000 month"],
  ["Rs 25,000/- per month", "25000-25000 month"],
  ["INR 25,000 per month", "25000-25000 month"],
  ["25000 per month", "25000-25000 month"],
  ["25000/month", "25000-25000 month"],
  ["25k/month", "25000-25000 month"],
  ["25K per month", "25000-25000 month"],
  ["25K pm", "25000-25000 month"],
  ["25 thousand per month", "25000-25000 month"],
  ["10K-15K per month", "10000-15000 month"],
  ["10k-15k/month", "10000-15000 month"],
  ["10-15K per month", "10000-15000 month"],
  ["10 - 15k pm", "10000-15000 month"],
  ["₹10K - ₹15K per month", "10000-15000 month"],
  ["₹10,000 - ₹15,000 per month", "10000-15000 month"],
  ["₹10,000-15,000/month", "10000-15000 month"],
  ["Rs. 10000 - 15000 pm", "10000-15000 month"],
  ["Rs 10,000 to 15,000 per month", "10000-15000 month"],
  ["Rs. 40000 pm", "40000-40000 month"],
  ["Rs 40000 p.m.", "40000-40000 month"],
  ["Rs.40,000 PM", "40000-40000 month"],
  ["40000 pm", "40000-40000 month"],
  ["₹1,20,000/month", "120000-120000 month"],
  ["₹1.2L per month", "120000-120000 month"],
  ["1.5 lakh per month", "150000-150000 month"],
  ["1-1.5 lakh per month", "100000-150000 month"],
  ["Up to ₹30,000 per month", "_-30000 month"],
  ["upto 30k/month", "_-30000 month"],
  ["30k/month onwards", "30000-_ month"],
  ["₹35,000 per mensem", "35000-35000 month"],
  ["Monthly ₹45,000", "45000-45000 month"],
  ["Salary: ₹18,000 per month", "18000-18000 month"],
  ["Gross ₹22,000/month", "22000-22000 month"],
  // Stipends.
  ["stipend ₹15,000", "15000-15000 month"],
  ["Stipend: ₹15,000", "15000-15000 month"],
  ["Stipend ₹15,000/month", "15000-15000 month"],
  ["Stipend: Rs. 15000 per month", "15000-15000 month"],
  ["₹15,000 stipend", "15000-15000 month"],
  ["15k stipend", "15000-15000 month"],
  ["15k per month stipend", "15000-15000 month"],
  ["25k per month stipend", "25000-25000 month"],
  ["Stipend 10-20k", "10000-20000 month"],
  ["Stipend: 10K - 20K", "10000-20000 month"],
  ["Stipend up to ₹20,000", "_-20000 month"],
  ["Stipend Rs 8000", "8000-8000 month"],
  ["₹20k stipend", "20000-20000 month"],
  ["Stipend INR 12,000 per month", "12000-12000 month"],
  ["Stipend 8000", "8000-8000 month"],
  ["stipend 10000-15000", "10000-15000 month"],
  // Benefits beside the pay.
  ["Rs 25000 per month + PF", "25000-25000 month"],
  ["₹ 6 LPA - ₹ 8 LPA + ESOPs", "600000-800000 year"],
  ["12 LPA + HRA + allowances", "1200000-1200000 year"],
  ["₹18,000/month + commission", "18000-18000 month"],
  ["10-14 LPA + stocks", "1000000-1400000 year"],
  // Hourly.
  ["₹300 per hour", "300-300 hour"],
  ["₹300/hour", "300-300 hour"],
  ["₹300/hr", "300-300 hour"],
  ["₹300 an hour", "300-300 hour"],
  ["₹300 hourly", "300-300 hour"],
  ["Rs 300 per hour", "300-300 hour"],
  ["Rs. 300/hr", "300-300 hour"],
  ["INR 300 per hour", "300-300 hour"],
  ["300 per hour", "300-300 hour"],
  ["300/hr", "300-300 hour"],
  ["₹500-₹800 per hour", "500-800 hour"],
  ["₹500 - 800/hr", "500-800 hour"],
  ["Rs 500 to 800 per hour", "500-800 hour"],
  ["Up to ₹1,000 per hour", "_-1000 hour"],
  ["₹1,500/hour", "1500-1500 hour"],
  // Figures alone grouped as Indian rupees are, from a lakh up: a year's.
  ["7,50,000", "750000-750000 year"],
  ["7,50,000 - 9,00,000", "750000-900000 year"],
  ["₹2k per hour", "2000-2000 hour"],
  ["₹250 per hr", "250-250 hour"],
  ["₹400 hrs", "400-400 hour"],
  // No pay, or not sure: null.
  ["Competitive", "null"],
  // No period said, and too little for a year: unsure.
  ["₹25,000 in hand", "null"],
  // A second sum inside the first.
  ["18 LPA incl. 2 LPA variable", "null"],
  ["competitive salary", "null"],
  ["As per industry standards", "null"],
  ["As per industry standard", "null"],
  ["Best in industry", "null"],
  ["Not disclosed", "null"],
  ["Negotiable", "null"],
  ["As per company norms", "null"],
  ["Unpaid", "null"],
  ["", "null"],
  ["   ", "null"],
  ["-", "null"],
  ["N/A", "null"],
  ["TBD", "null"],
  ["Attractive package", "null"],
  ["8-12", "null"],
  ["15", "null"],
  ["₹25,000", "null"],
  ["25000", "null"],
  ["$120,000", "null"],
  ["USD 100k", "null"],
  ["$50/hour", "null"],
  ["€60,000 per year", "null"],
  ["£40k", "null"],
  ["12 LPA + 2 LPA variable", "null"],
  ["10 LPA + 20% bonus", "null"],
  ["8-12 LPA, 2-4 LPA variable", "null"],
  ["8-12-16 LPA", "null"],
  ["12-8 LPA", "null"],
  ["0 LPA", "null"],
  ["0.01 LPA", "null"],
  ["5000 LPA", "null"],
  ["₹5/month", "null"],
  ["₹10 per hour", "null"],
  ["₹2,00,000 per hour", "null"],
  ["2 years experience, 8 LPA", "null"],
  ["Batch 2025: 5 LPA", "null"],
  ["8-12 LPA per month", "null"],
  ["₹20,000 per month per year", "null"],
  ["9876543210", "null"],
  ["Call HR for salary details", "null"],
  ["Equity + salary", "null"],
  ["ESOPs", "null"],
  ["Performance based", "null"],
  ["Commission only", "null"],
  ["DOE", "null"],
  ["Best in the market", "null"],
  ["15 LPA or 20 LPA", "null"],
  ["up to 6 LPA from 4 LPA", "null"],
  ["10 lakhs to 1.5 lakh", "null"],
  ["12 Cr per month", "null"],
];

const shorthand = (pay: Pay | null) =>
  pay ? `${pay.min ?? "_"}-${pay.max ?? "_"} ${pay.period}` : "null";

Deno.test("the corpus holds at least 200 package texts", () => {
  assert(CORPUS.length >= 200, `${CORPUS.length} texts`);
  assert.deepEqual(new Set(CORPUS.map(([text]) => text)).size, CORPUS.length, "no text twice");
});

Deno.test("at least 98% of the corpus is read right, and no miss is a wrong pay", () => {
  const misses = CORPUS.map(([text, expected]) => ({
    text,
    expected,
    read: shorthand(readPay(text)),
  }))
    .filter(({ expected, read }) => expected !== read);
  const wrong = misses.filter(({ read }) => read !== "null");
  assert.deepEqual(wrong, [], "a pay read wrong instead of null");
  assert(
    misses.length <= CORPUS.length * 0.02,
    `${misses.length} of ${CORPUS.length} missed: ${JSON.stringify(misses, null, 1)}`,
  );
});

/** Each text read as its shorthand: a test of its own for spellings the corpus's 2% could hide. */
function readsAs(cases: [text: string, expected: string][]) {
  for (const [text, expected] of cases) assert.deepEqual(shorthand(readPay(text)), expected, text);
}

Deno.test("a package saying what its figures hold is read; a sum inside the first is not", () => {
  readsAs([
    ["6-8 LPA (including variable)", "600000-800000 year"],
    ["8 LPA excl. bonus", "800000-800000 year"],
    ["take home 20k pm", "20000-20000 month"],
    ["₹30,000/month net", "30000-30000 month"],
    ["18 LPA incl. 2 LPA variable", "null"],
  ]);
});

Deno.test("a month's pay beside its year's is no range; a plus after a unit is a least", () => {
  readsAs([
    ["₹ 60,000 per month (₹ 7,20,000 CTC)", "null"],
    ["₹30,000 per month, ₹3,60,000 annual", "null"],
    ["Monthly ₹ 25,000 (CTC 3,00,000)", "null"],
    ["CTC 20-25k per month", "20000-25000 month"],
    ["Rs 20,000/- to 25,000/- pm", "20000-25000 month"],
    ["2.4LPA+", "240000-_ year"],
    ["1 Cr+", "10000000-_ year"],
    ["12 LPA + ESOPs", "1200000-1200000 year"],
    ["More than 10 LPA", "1000000-_ year"],
    ["Not more than 10 LPA", "_-1000000 year"],
    ["Below 3 LPA", "_-300000 year"],
    ["Rs15000/month", "15000-15000 month"],
    ["₨ 20000 per month", "20000-20000 month"],
    ["3,5 LPA", "null"],
    ["₹ 1 lakh stipend", "null"],
    ["50L - 1Cr", "5000000-10000000 year"],
    // Words beside the pay that change no figure.
    ["Earn up to ₹35,000/month", "_-35000 month"],
    ["₹27,500/month consolidated", "27500-27500 month"],
    ["₹12,000/month + PF + ESI", "12000-12000 month"],
    ["₹2.8 - 3.6 LPA + HQ allowance", "280000-360000 year"],
    ["₹12k-14k pm + service charge", "12000-14000 month"],
  ]);
});

Deno.test("every pay read is in whole rupees, in INR, with its period", () => {
  for (const [text] of CORPUS) {
    const pay = readPay(text);
    if (!pay) continue;
    assert.deepEqual(pay.currency, "INR");
    for (const figure of [pay.min, pay.max]) {
      assert(figure === null || Number.isInteger(figure), `${text}: ${figure}`);
    }
  }
});

Deno.test("the admin reads how a package was read", () => {
  assert.deepEqual(describePay(readPay("8-12 LPA")!), "₹8,00,000 - ₹12,00,000 a year");
  assert.deepEqual(describePay(readPay("CTC up to 6 LPA")!), "up to ₹6,00,000 a year");
  assert.deepEqual(describePay(readPay("₹25,000/month")!), "₹25,000 a month");
  assert.deepEqual(describePay(readPay("4+ LPA")!), "from ₹4,00,000 a year");
  assert.deepEqual(describePay(readPay("₹300 per hour")!), "₹300 an hour");
});

Deno.test("a pay's yearly top: month × 12, hour × 2,080, none 0", () => {
  assert.deepEqual(yearlyTop(readPay("8-12 LPA")), 1_200_000);
  assert.deepEqual(yearlyTop(readPay("10K-15K per month")), 180_000);
  assert.deepEqual(yearlyTop(readPay("₹300 per hour")), 624_000);
  assert.deepEqual(yearlyTop(readPay("4+ LPA")), 400_000);
  assert.deepEqual(yearlyTop(null), 0);
});

Deno.test("figures alone, grouped as Indian rupees and of a lakh or more, are a year's pay; others are not sure", () => {
  assert.deepEqual(readPay("7,50,000"), {
    min: 750_000,
    max: 750_000,
    period: "year",
    currency: "INR",
  });
  assert.deepEqual(readPay("12,00,000 - 18,00,000"), {
    min: 1_200_000,
    max: 1_800_000,
    period: "year",
    currency: "INR",
  });
  for (const text of ["25000", "12,000", "1,200,000", "2025"]) {
    assert.equal(readPay(text), null, text);
  }
});
