import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";
import { DevicePage } from "../pages/device-page.ts";
import { type Language, LoginPage } from "../pages/login-page.ts";
import { askForDeviceCode } from "../tools/device-codes.ts";
import { demoOidcCredentials } from "../tools/oidc-relying-party.ts";
import { withServerClockAdvanced } from "../tools/server-clock.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
// The product runs with OIDC_DEVICE_CODE_TTL_SECONDS from playwright.config.ts, so a code can expire here.
const deviceCodeTtlMs = Number(process.env.E2E_DEVICE_CODE_TTL_SECONDS ?? 30) * 1000;
const serverOrigin = `http://localhost:${Number(process.env.E2E_PORT_BASE ?? 3300)}`;

// The code that expires in the last walk is asked before the file's first walk, so that its lifetime passes while
// the walks before run (the provider keeps its own time, so the server's test clock cannot move it).
let staleCode: { askedAt: number; userCode: string } | undefined;
test.beforeAll(async () => {
  const askedAt = Date.now();
  staleCode = { askedAt, userCode: (await askForDeviceCode(serverOrigin, "uk")).user_code };
});

/** The manual's device sample (section 8), exactly as printed. */
function manualSample(language: Language): string {
  const source = readFileSync(join(repoRoot, `docs/integration-manual/${language}.md`), "utf8");
  const block = [...source.matchAll(/```js\n([\s\S]*?)\n```/g)].find((match) => match[1]?.startsWith("// device.mjs"));
  if (!block?.[1]) throw new Error(`no device.mjs sample in the ${language} manual`);
  return block[1];
}

interface RunningSample {
  child: ChildProcess;
  printed: () => string;
  /** Resolves with the first printed line matching `pattern`. */
  line: (pattern: RegExp) => Promise<RegExpMatchArray>;
}

/** Saves the sample as device.mjs and runs it as the manual says, against this KPI ID with the demo client. */
function runSample(directory: string, language: Language, issuer: string): RunningSample {
  const file = join(directory, "device.mjs");
  writeFileSync(file, manualSample(language));
  const { id, secret } = demoOidcCredentials();
  const child = spawn(process.execPath, [file], {
    cwd: directory,
    env: {
      ...process.env,
      KPI_ID_ISSUER: issuer,
      KPI_ID_APP_ID: id,
      KPI_ID_APP_SECRET: secret,
      KPI_ID_LANGUAGE: language,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const collect = (chunk: Buffer) => {
    printed += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const line = (pattern: RegExp) =>
    expect
      .poll(() => printed.match(pattern), { timeout: 60_000, message: `the sample printed:\n${printed}` })
      .not.toBeNull()
      .then(() => printed.match(pattern) as RegExpMatchArray);
  return { child, printed: () => printed, line };
}

const messages = {
  uk: { wrong: "Такого коду немає", expired: "Час дії коду минув" },
  en: { wrong: "There is no such code", expired: "The code has expired" },
} as const;

for (const language of ["uk", "en"] as const) {
  test.describe(`device sign-in (${language})`, () => {
    test("the manual's device.mjs prints a code, a person signs in and allows it in Chromium, and it prints who", async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(180_000);
      const directory = join(repoRoot, ".tmp", `device-sample-${process.pid}-${Date.now()}`);
      mkdirSync(directory, { recursive: true });
      const sample = runSample(directory, language, `${baseURL}/oidc`);
      try {
        const [, address, userCode] = await sample.line(/Open (\S+) and enter the code (\d{4}-\d{4})/);
        expect(address).toBe(`${baseURL}/${language}/device`);
        const [, link] = await sample.line(/Or open (\S+)/);
        await page.goto(link ?? "");
        // Not signed in: any sign-in first, and back to the page with the code.
        const login = new LoginPage(page, language);
        await login.signIn(demoUsers.student.username, demoUsers.student.password);
        const device = new DevicePage(page, language);
        await expect(device.code).toHaveValue(userCode ?? "");
        await device.continue.click();
        await expect(device.shownCode).toHaveText(userCode ?? "");
        await device.allow.click();
        await expect(device.allowed).toBeVisible();
        await sample.line(new RegExp(`Signed in: ${demoUsers.student.fullName} \\(`));
      } finally {
        sample.child.kill();
        rmSync(directory, { recursive: true, force: true });
      }
    });
  });
}

// One wait for both languages: the code asked before the file's first walk outlives OIDC_DEVICE_CODE_TTL_SECONDS.
test("a wrong code and an expired code each say so in the person's language", async ({ page }) => {
  test.setTimeout(deviceCodeTtlMs + 120_000);
  // The student's wrong codes of earlier walks on this server (the accessibility walk types four) count
  // towards the per-person throttle, and past five free ones this walk's own codes met "Too many wrong codes"
  // (ci2). The server's clock moves past the 15 minutes after which it forgets them; the provider keeps its
  // own time, so the code still expires when this walk waits for it.
  await withServerClockAdvanced(page, 16 * 60, () => wrongAndExpiredCodes(page));
});

async function wrongAndExpiredCodes(page: Page): Promise<void> {
  if (!staleCode) throw new Error("no device code was asked before the walks");
  const { askedAt, userCode } = staleCode;
  await new LoginPage(page, "uk").goto();
  await new LoginPage(page, "uk").signIn(demoUsers.student.username, demoUsers.student.password);
  await page.waitForURL(/\/uk\/apps/);
  for (const language of ["uk", "en"] as const) {
    const device = new DevicePage(page, language);
    await device.goto();
    await device.enter("0000-0001");
    await expect(device.codeError).toContainText(messages[language].wrong);
  }
  await page.waitForTimeout(Math.max(0, askedAt + deviceCodeTtlMs + 1000 - Date.now()));
  for (const language of ["uk", "en"] as const) {
    const device = new DevicePage(page, language);
    await device.goto();
    await device.enter(userCode);
    await expect(device.codeError).toContainText(messages[language].expired);
  }
}
