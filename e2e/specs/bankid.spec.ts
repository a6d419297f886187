import { isBankIdErrorReason } from "@kpi-id/contracts";
import { demoPeople } from "@kpi-id/server/seed";
import type { Page } from "@playwright/test";
import { bankIdPersonas } from "../../sandbox/src/bankid/personas.ts";
import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { AppsPage } from "../pages/apps-page.ts";
import { BankIdEntryPage, BankIdStandInPage } from "../pages/bankid-pages.ts";
import type { Language } from "../pages/login-page.ts";
import { photograph } from "../tools/photographs.ts";

// The server's work after the bank (token, envelope, match) takes seconds on a loaded machine.
const afterTheBank = { timeout: 30_000 };

// The stand-in's workable banks (sandbox/src/bankid/banks.ts); KPI ID's picker names them from /api/banks.
const privatBank = "ПриватБанк";

/** The address of the one page load that handed BankID's answer to the server (GET /bankid/auth). */
function watchCallback(page: Page, baseURL: string): () => string | undefined {
  let seen: string | undefined;
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.url().startsWith(`${baseURL}/bankid/auth?`)) seen = request.url();
  });
  return () => seen;
}

async function signInAs(page: Page, language: Language, personaId: string): Promise<BankIdEntryPage> {
  const entry = new BankIdEntryPage(page, language);
  await page.goto(`/${language}/`);
  await entry.start(privatBank);
  await new BankIdStandInPage(page).choose(personaId);
  return entry;
}

// What the person sees at the end (issue 38): every persona the bank signs in, and one it refuses, each walked once,
// the languages taking turns (both see people signed in; the refusal falls to one, and the accessibility walk opens
// the other's login page with that refusal, ?bankid_auth_error=no_account). Each persona's outcome is the server's
// (apps/server/test/sign-in/bankid/bankid.test.ts drives every persona through the stand-in over HTTP), each refusal
// reason's words in both languages the login screen's (apps/web/src/app/routes/login-bankid-refusal.test.tsx, with
// its help link): walking each persona in both languages only repeated the server's test with other words around it
// (issue 75).
const refusalWalked = "stranger";
const walkedPersonas = bankIdPersonas.filter(
  (persona) => persona.expect.outcome === "signed_in" || persona.id === refusalWalked,
);
const languageOf = (index: number): Language => (index % 2 === 0 ? "uk" : "en");

test.describe("sign-in with BankID through the stand-in", () => {
  for (const [index, persona] of walkedPersonas.entries()) {
    const language = languageOf(index);
    const outcome = persona.expect;
    const title =
      outcome.outcome === "signed_in"
        ? `${persona.id}: signed in as ${outcome.username}, on the apps page (${language})`
        : `${persona.id}: the login page says why (${outcome.reason}, ${language})`;
    test(title, async ({ page, baseURL }) => {
      const callback = watchCallback(page, baseURL ?? "");
      const entry = await signInAs(page, language, persona.id);
      if (outcome.outcome === "signed_in") {
        const apps = new AppsPage(page, language);
        const person = demoPeople.find((each) => each.username === outcome.username);
        await expect(page).toHaveURL(apps.url(), afterTheBank);
        // The apps page greets the person the bank named, by the name the university knows.
        await expect(apps.heading).toContainText(person?.fullName ?? outcome.username);
        await apps.myDataLink.click();
        // The person's record says how they signed in, in words.
        await expect(apps.myData).toContainText("BankID");
      } else {
        if (!isBankIdErrorReason(outcome.reason)) throw new Error(`unknown reason ${outcome.reason}`);
        await expect(page).toHaveURL(new RegExp(`/${language}/$`), afterTheBank);
        await entry.expectRefused(outcome.reason);
        // The alert names a way out: the help page.
        await expect(entry.error.getByRole("link")).toHaveAttribute("href", `/${language}/faq`);
      }
      // The answer went to the server once, through the return page.
      expect(callback()).toBeDefined();
    });
  }
});

test.describe("BankID: the details", () => {
  // NBU's bank list down: the server answers with its kept copy (apps/server/test/sign-in/bankid/bankid-bank-list.test.ts
  // proves that); here, what the person sees of it, in both languages and at a phone's and a desktop's width.
  for (const language of ["uk", "en"] as const) {
    test(`a kept bank list says from when it is (${language})`, async ({ page }, testInfo) => {
      await page.route("**/api/banks", async (route) => {
        const answer = await route.fetch();
        const body = (await answer.json()) as Record<string, unknown>;
        await route.fulfill({ response: answer, json: { ...body, stale: true, listedAt: "2026-11-27T08:30:00.000Z" } });
      });
      const entry = new BankIdEntryPage(page, language);
      await page.goto(`/${language}/`);
      await entry.button.click();
      await expect(entry.staleNote).toContainText(language === "uk" ? "показано список від" : "this one is from");
      await expect(entry.banks).toHaveCount(3);
      await expectNoAxeViolations(page, `stale bank list (${language})`);
      await photograph(page, testInfo, `${language}-bank-picker-stale`);
    });
  }

  test("the ordinary person's record names them and BankID", async ({ page }) => {
    await signInAs(page, "en", "ordinary");
    const apps = new AppsPage(page, "en");
    await expect(page).toHaveURL(apps.url(), afterTheBank);
    await apps.myDataLink.click();
    await expect(apps.myData).toContainText("Олена Коваленко");
    await expect(apps.myData).toContainText("BankID");
  });

  test("a code used once does not sign in again: the replay says the sign-in expired", async ({ page, baseURL }) => {
    const callback = watchCallback(page, baseURL ?? "");
    await signInAs(page, "uk", "ordinary");
    await expect(page).toHaveURL(/\/uk\/apps/, afterTheBank);
    const used = callback();
    expect(used).toBeDefined();
    await page.context().clearCookies();
    await page.goto(used ?? "");
    const entry = new BankIdEntryPage(page, "uk");
    await expect(page).toHaveURL(/\/uk\/$/, afterTheBank);
    await entry.expectRefused("expired");
  });

  test("the return page shows a spinner and says what it does while the server works", async ({ page }) => {
    // An empty answer (204) cancels the page load, so the return page stays on screen.
    await page.route("**/bankid/auth?*", (route) => route.fulfill({ status: 204 }));
    for (const language of ["uk", "en"] as const) {
      await page.goto(`/${language}/bankid-auth?code=abc&state=xyz`);
      await expect(new BankIdEntryPage(page, language).returning).toBeVisible();
      await expect(page).toHaveTitle(
        language === "uk" ? "Вхід через BankID — KPI ID" : "Signing in with BankID — KPI ID",
      );
    }
  });

  test("the picker is a keyboard-usable radio group: Tab in, arrows choose, Enter goes to that bank", async ({
    page,
  }) => {
    const entry = new BankIdEntryPage(page, "en");
    await page.goto("/en/");
    await entry.button.focus();
    await page.keyboard.press("Enter");
    await expect(entry.banks.first()).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(entry.banks.first()).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(entry.banks.nth(1)).toBeChecked();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${BankIdStandInPage.origin()}/**`);
    expect(new URL(page.url()).searchParams.get("bank_id")).toBe("monobank");
  });

  test("a recovery: Forgot password → BankID → the bank → set a new password for the person it named", async ({
    page,
  }) => {
    for (const language of ["uk", "en"] as const) {
      const entry = new BankIdEntryPage(page, language);
      await page.goto(`/${language}/forgot-password`);
      await page.getByRole("link", { name: language === "uk" ? /^Через BankID/ : /^With BankID/ }).click();
      await expect(page).toHaveURL(new RegExp(`/${language}/forgot-password\\?via=bankid$`));
      await entry.start(privatBank, entry.recoveryButton);
      // The page takes the token out of the address bar as soon as it reads it, so the arrival is watched
      // from before the bank's answer instead of read from the address bar afterwards (ci1 missed it).
      const arrived = page.waitForURL(new RegExp(`/${language}/reset-password#token=`), {
        ...afterTheBank,
        waitUntil: "commit",
      });
      await new BankIdStandInPage(page).choose("ordinary");
      await arrived;
      await expect(page).toHaveURL(new RegExp(`/${language}/reset-password$`));
      await expect(
        page.getByText(language === "uk" ? "Обліковий запис: Олена Коваленко" : "For Олена Коваленко"),
      ).toBeVisible();
    }
  });

  test("a recovery the person cancels at the bank comes back to Forgot password with what to do", async ({ page }) => {
    const entry = new BankIdEntryPage(page, "en");
    await page.goto("/en/forgot-password?via=bankid");
    await entry.start(privatBank, entry.recoveryButton);
    await new BankIdStandInPage(page).choose("cancelled");
    await expect(page).toHaveURL(/\/en\/forgot-password\?via=bankid$/, afterTheBank);
    await expect(entry.error).toContainText("BankID confirmation was cancelled");
    await expect(entry.recoveryButton).toBeVisible();
  });
});
