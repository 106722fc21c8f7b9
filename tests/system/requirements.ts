/**
 * What `deno task test` needs from the machine besides Deno, checked before any test runs: each
 * one missing is named with the line that installs it (Debian and Ubuntu), so a newcomer sees
 * one clear message rather than a suite of browser and checker failures.
 */
import { HEADLESS_SHELL_PATH } from "../helpers/browser.ts";

interface Requirement {
  name: string;
  /** Why the tests need it. */
  for: string;
  /** The program run with `--version` (or the path checked) to find it. */
  program: string;
  install: string;
}

const REQUIREMENTS: Requirement[] = [
  {
    name: "Chromium's headless shell",
    for: "the browser tests (set HEADLESS_SHELL_PATH for another one)",
    program: HEADLESS_SHELL_PATH,
    install: "sudo apt-get install -y chromium-headless-shell fonts-dejavu-core",
  },
  {
    name: "Java",
    for: "the W3C Nu HTML checker that validates every page",
    program: "java",
    install: "sudo apt-get install -y default-jre-headless",
  },
  {
    name: "faketime",
    for: "the test of a server whose clock is days fast",
    program: "faketime",
    install: "sudo apt-get install -y faketime",
  },
];

async function runs(program: string): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(program, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

const missing: Requirement[] = [];
for (const requirement of REQUIREMENTS) {
  if (!(await runs(requirement.program))) missing.push(requirement);
}
if (missing.length > 0) {
  console.error("The tests need programs this machine does not have:");
  for (const requirement of missing) {
    console.error(`  ${requirement.name}, for ${requirement.for}:\n    ${requirement.install}`);
  }
  Deno.exit(1);
}
