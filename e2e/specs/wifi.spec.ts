import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { LoginPage } from "../pages/login-page.ts";
import { ConsoleWifi, WifiPage } from "../pages/wifi-page.ts";
import { useOwnKpiId } from "../tools/own-kpi-id.ts";
import { widths } from "../tools/walk.ts";

/**
 * The account page's Wi-Fi passwords (issue 61). Wi-Fi shows only where FreeRADIUS asks KPI ID
 * (RADIUS_REST_SECRET), so the walk runs against a KPI ID of its own with it set; the eduroam test
 * (apps/server/test/protocols/radius/eduroam.test.ts) signs devices in with such passwords through FreeRADIUS.
 */
const port = Number(process.env.E2E_PORT_BASE ?? 3300) + 14;
const person = { username: "wifi-walker", fullName: "Оксана Вайфай", password: "a walker's long passphrase" };
const devices = { uk: "Мій телефон", en: "My laptop" } as const;

const origin = useOwnKpiId(port, {
  env: { RADIUS_REST_SECRET: "radius-rest-secret-of-the-wifi-walk-0123456789" },
  people: [person],
});

for (const language of ["uk", "en"] as const) {
  test(`Wi-Fi passwords on the account page (${language}): create one, see it once with its QR code, revoke it`, async ({
    page,
  }, testInfo) => {
    const wifi = new WifiPage(page, language);
    const login = new LoginPage(page, language);
    await login.goto("", origin);
    await login.signIn(person.username, person.password);
    await page.waitForURL(new RegExp(`/${language}/apps`));
    await page.goto(`${origin}/${language}/account#wifi`);
    await expect(wifi.none).toContainText(`${person.username}@kpi.ua`);

    await wifi.name.fill(devices[language]);
    await wifi.create.click();
    await expect(wifi.created).toBeVisible();
    await expect(wifi.qrCode).toBeVisible();
    await expect(wifi.copy).toBeVisible();
    await expect(wifi.createdPassword).toHaveText(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    await expect(wifi.rows).toHaveCount(1);
    await expect(wifi.rows.first()).toContainText(devices[language]);
    await expect(wifi.rows.first()).toContainText(new RegExp(`${person.username}\\+[a-z2-9]{6}@kpi\\.ua`));
    await expectNoAxeViolations(page, `Wi-Fi passwords (${language})`);
    for (const width of widths) {
      await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
      await wifi.section.screenshot({ path: testInfo.outputPath(`wifi-${language}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Shown once: after "done" (or a reload) only the name and identity stay.
    await wifi.done.click();
    await expect(wifi.created).toHaveCount(0);
    await page.reload();
    await expect(wifi.rows).toHaveCount(1);
    await expect(wifi.createdPassword).toHaveCount(0);

    await wifi.revokeButton(wifi.rows.first()).click();
    await wifi.confirmRevoke().click();
    await expect(wifi.rows).toHaveCount(0);
    await expect(wifi.none).toBeVisible();
  });
}

const consoleWords = {
  uk: { off: "Wi-Fi вимкнено", on: "Wi-Fi увімкнено" },
  en: { off: "Wi-Fi is turned off", on: "Wi-Fi is on" },
};

for (const language of ["uk", "en"] as const) {
  test(`the console turns a person's Wi-Fi off and on (${language})`, async ({ page }, testInfo) => {
    const console = new ConsolePage(page, language);
    await console.signInWithDiia("employee");
    await console.open();
    await console.findAndOpen("newcomer", "Максим Бондар");
    const wifi = new ConsoleWifi(page, language);
    await expect(wifi.state).toContainText(consoleWords[language].on);
    await wifi.turnOff.click();
    await wifi.confirm.click();
    await expect(wifi.state).toContainText(consoleWords[language].off);
    await expectNoAxeViolations(page, `console Wi-Fi (${language})`);
    for (const width of widths) {
      await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
      await wifi.section.screenshot({ path: testInfo.outputPath(`console-wifi-${language}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await wifi.turnOn.click();
    await wifi.confirm.click();
    await expect(wifi.state).toContainText(consoleWords[language].on);
  });
}
