import type { Page } from "@playwright/test";
import { demoUsers, expect, test } from "../fixtures.ts";
import { DemoSitePage } from "../pages/demo-site-page.ts";
import { DiiaPhonePage, type DiiaPhonePerson } from "../pages/diia-phone-page.ts";
import { DiiaQrPage } from "../pages/diia-qr-page.ts";
import { demoOidcCredentials } from "../tools/oidc-relying-party.ts";
import { withServerClockAdvanced } from "../tools/server-clock.ts";

// The product runs with DIIA_REQUEST_TTL_SECONDS from playwright.config.ts; the server's clock moves past it.
const requestTtlMs = Number(process.env.E2E_DIIA_REQUEST_TTL_SECONDS ?? 25) * 1000;

async function scanWithPhone(page: Page, deepLink: string, person: DiiaPhonePerson): Promise<DiiaPhonePage> {
  const phone = new DiiaPhonePage(await page.context().newPage());
  await phone.open(deepLink);
  await expect(phone.requestingService).toContainText("KPI ID");
  await phone.signAs(person);
  return phone;
}

test.describe("sign-in with Diia (against the sandbox stand-in)", () => {
  test("the QR code is shown at its spec size, 364 px", async ({ diiaQrPage }) => {
    await diiaQrPage.openFromLogin();
    const box = await diiaQrPage.qr.locator("svg").boundingBox();
    expect(box?.width).toBe(364);
  });

  for (const language of ["uk", "en"] as const) {
    test(`on a phone an "Open Diia" button beside the code opens the same deep link (${language})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const qrPage = new DiiaQrPage(page, language);
      const deepLink = await qrPage.openFromLogin();
      await expect(qrPage.openApp).toBeInViewport();
      await expect(qrPage.openApp).toHaveAttribute("href", deepLink);
      await expect(qrPage.openApp).toHaveAttribute("target", "_blank");
    });
  }

  test("the wide screen shows the code to scan and no button to open an app it cannot open", async ({ diiaQrPage }) => {
    await diiaQrPage.openFromLogin();
    await expect(diiaQrPage.openApp).toHaveCount(0);
  });

  test("login screen → QR → phone confirms → the apps screen", async ({ page, appsPage, diiaQrPage }) => {
    const deepLink = await diiaQrPage.openFromLogin();
    const phone = await scanWithPhone(page, deepLink, "student");
    await expect(phone.result).toHaveAttribute("data-outcome", "sent");
    await expect(page).toHaveURL(/\/uk\/apps$/);
    await expect(appsPage.heading).toHaveText(`Вітаємо, ${demoUsers.student.fullName}!`);
    await appsPage.myDataLink.click();
    await expect(appsPage.myData).toContainText("Спосіб входу:Дія");
  });

  test("the appId survives the Diia screen", async ({ page, appsPage, diiaQrPage }) => {
    // Not one of the person's applications: the apps screen receives it and says so.
    const appId = "00000000-0000-4000-8000-000000000000";
    const deepLink = await diiaQrPage.openFromLogin(`?appId=${appId}`);
    await scanWithPhone(page, deepLink, "employee");
    await expect(appsPage.redirectError).toBeVisible();
    await expect(page).toHaveURL(/\/uk\/apps/);
  });

  test("the application's state comes back to its callback unchanged after a Diia sign-in", async ({
    page,
    diiaQrPage,
  }) => {
    // Issue 19: the demo site is on the student's list; its state holds characters that need encoding.
    const state = "Zx9_-.~ a+b/c=d&e?f%25é";
    const link = new URLSearchParams({ appId: demoOidcCredentials().id, state });
    const deepLink = await diiaQrPage.openFromLogin(`?${link}`);
    await scanWithPhone(page, deepLink, "student");
    await page.waitForURL(new RegExp(`^${DemoSitePage.origin()}/callback\\?ticketId=`));
    expect(new URL(page.url()).searchParams.get("state")).toBe(state);
  });

  // Issue 37: a refusal a new code will not cure stays on the screen and says why, with a link to help.
  for (const [person, why, says] of [
    ["stranger", "a person the campus does not know", "В університеті немає особи з податковим номером"],
    ["untrusted", "a certificate from a CA the product does not trust", "Підпису Дії не вдалося довіряти"],
    ["revoked", "a certificate on its CA's revocation list", "Підпису Дії не вдалося довіряти"],
    ["revoked-ocsp", "a certificate its CA's OCSP responder says is revoked", "Підпису Дії не вдалося довіряти"],
  ] as const) {
    test(`${why}: the phone's signature is refused and the screen keeps an alert that says why`, async ({
      page,
      diiaQrPage,
    }) => {
      const deepLink = await diiaQrPage.openFromLogin();
      const phone = await scanWithPhone(page, deepLink, person);
      await expect(phone.result).toHaveAttribute("data-outcome", "refused");
      await expect(diiaQrPage.refusal).toContainText(says);
      await expect(diiaQrPage.refusal.getByRole("link")).toHaveAttribute("href", "/uk/faq");
      await expect(page).toHaveURL(/\/uk\/diia$/);
    });
  }

  test("an expired request: the screen shows the error toast and a late confirmation is refused", async ({
    page,
    diiaQrPage,
  }) => {
    const deepLink = await diiaQrPage.openFromLogin();
    const phone = new DiiaPhonePage(await page.context().newPage());
    await phone.open(deepLink);
    await withServerClockAdvanced(page, requestTtlMs / 1000 + 1, async () => {
      await expect(diiaQrPage.errorToast).toBeVisible({ timeout: 20_000 });
      await phone.signAs("student");
      await expect(phone.result).toHaveAttribute("data-outcome", "refused");
      await expect(page).toHaveURL(/\/uk\/diia$/);
    });
  });
});
