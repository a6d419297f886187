import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { ConsoleWifi, joinWifi, WifiPage } from "../pages/wifi-page.ts";
import { signInThroughApi } from "../tools/api-sign-in.ts";
import { useOwnKpiId } from "../tools/own-kpi-id.ts";
import { photograph } from "../tools/photographs.ts";

/**
 * The account page's Wi-Fi passwords (issue 61). Wi-Fi shows only where FreeRADIUS asks KPI ID
 * (RADIUS_REST_SECRET), so the walk runs against a KPI ID of its own with it set; the eduroam test
 * (apps/server/test/protocols/radius/eduroam.test.ts) signs devices in with such passwords through FreeRADIUS.
 */
const port = Number(process.env.E2E_PORT_BASE ?? 3300) + 14;
const person = { username: "wifi-walker", fullName: "Оксана Вайфай", password: "a walker's long passphrase" };
const devices = { uk: "Мій телефон", en: "My laptop" } as const;
const renamed = { uk: "Телефон Оксани, робочий", en: "Work laptop, 2nd floor" } as const;
const radiusSecret = "radius-rest-secret-of-the-wifi-walk-0123456789";

const origin = useOwnKpiId(port, {
  env: { RADIUS_REST_SECRET: radiusSecret },
  people: [person],
});
for (const language of ["uk", "en"] as const) {
  test(`Wi-Fi passwords on the account page (${language}): create one, see it once with its QR code, see its uses, rename it, revoke it`, async ({
    page,
  }, testInfo) => {
    const wifi = new WifiPage(page, language);
    await signInThroughApi(page, language, person, origin);
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
    await photograph(page, testInfo, `wifi-${language}`, { part: wifi.section });

    // Shown once: after "done" (or a reload) only the name and identity stay.
    const password = (await wifi.createdPassword.textContent()) ?? "";
    const identityPattern = new RegExp(`${person.username}\\+[a-z2-9]{6}@kpi\\.ua`);
    const identity = (await wifi.rows.first().textContent())?.match(identityPattern)?.[0] ?? "";
    await wifi.done.click();
    await expect(wifi.created).toHaveCount(0);
    await page.reload();
    await expect(wifi.rows).toHaveCount(1);
    await expect(wifi.createdPassword).toHaveCount(0);

    // The device joins at two access points: the row names the last, the rest unfold under it.
    const row = wifi.rows.first();
    const station = "02-00-5E-10-00-61";
    for (const accessPoint of ["AA-BB-CC-00-0A-01:eduroam", "AA-BB-CC-00-0B-02:eduroam"]) {
      await joinWifi(page.request, origin, radiusSecret, { identity, password, accessPoint, station });
    }
    await page.reload();
    await expect(row).toContainText("AA-BB-CC-00-0B-02:eduroam");
    await wifi.uses(row).locator("summary").click();
    await expect(wifi.uses(row).getByRole("listitem")).toHaveCount(2);
    await expect(wifi.uses(row).getByRole("listitem").last()).toContainText("AA-BB-CC-00-0A-01:eduroam");

    // Renamed in place: the field takes focus, the new name replaces the old, focus returns to the button.
    await wifi.renameButton(row).click();
    const field = wifi.renameField(row, devices[language]);
    await expect(field).toBeFocused();
    await field.fill(renamed[language]);
    await expectNoAxeViolations(page, `Wi-Fi rename (${language})`);
    await photograph(page, testInfo, `wifi-rename-${language}`, { part: wifi.section });
    await wifi.saveName(row).click();
    await expect(field).toHaveCount(0);
    await expect(row).toContainText(renamed[language]);
    await expect(wifi.renameButton(row)).toBeFocused();
    await page.reload();
    await expect(row).toContainText(renamed[language]);
    await expect(row).not.toContainText(devices[language]);

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
    await console.signInWithDiiaThroughApi("employee");
    await console.findAndOpen("newcomer", "Максим Бондар");
    const wifi = new ConsoleWifi(page, language);
    await expect(wifi.state).toContainText(consoleWords[language].on);
    await wifi.turnOff.click();
    await wifi.confirm.click();
    await expect(wifi.state).toContainText(consoleWords[language].off);
    await expectNoAxeViolations(page, `console Wi-Fi (${language})`);
    await photograph(page, testInfo, `console-wifi-${language}`, { part: wifi.section });
    await wifi.turnOn.click();
    await wifi.confirm.click();
    await expect(wifi.state).toContainText(consoleWords[language].on);
  });
}
