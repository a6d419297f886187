import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { photograph } from "../tools/photographs.ts";

// The console's LDAP clients (issue 77): registered with the form (the secret shown once), listed with what each
// reads and its binds, and removed after the confirmation; both languages, at 390 and 1280 px.
const words = {
  uk: {
    name: "Ім'я (у його bind DN)",
    title: "Назва",
    addresses: "Адреси, з яких прив'язується",
    register: "Зареєструвати",
    remove: "Вилучити",
  },
  en: {
    name: "Name (in its bind DN)",
    title: "Title",
    addresses: "Addresses it binds from",
    register: "Register",
    remove: "Remove",
  },
} as const;

for (const language of ["uk", "en"] as const) {
  test(`the console's LDAP clients: register, list and remove one (${language})`, async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const text = words[language];
    const console = new ConsolePage(page, language);
    await console.signInWithDiiaThroughApi("employee");
    await page.goto(`/${language}/admin/ldap`);
    const clientName = `lab-${language}`;
    await page.getByLabel(text.name).fill(clientName);
    await page.getByLabel(text.title, { exact: true }).fill(language === "uk" ? "Лабораторія 301" : "Lab 301");
    await page.getByLabel(text.addresses).fill("10.20.0.5, 10.20.0.6");
    await page.getByTestId("ldap-kpi-password").check();
    await page.getByRole("button", { name: text.register, exact: true }).click();
    await expect(page.getByTestId("ldap-registered-secret")).toHaveText(/\S{20,}/);
    const card = page.getByTestId("ldap-client").filter({ hasText: `cn=${clientName},ou=clients` });
    await expect(card).toBeVisible();
    await expect(card).toContainText("10.20.0.5, 10.20.0.6");
    await expectNoAxeViolations(page, "LDAP clients");
    await photograph(page, testInfo, `ldap-clients-${language}`);
    await card.getByRole("button", { name: new RegExp(`^${text.remove}`) }).click();
    await page.getByTestId("confirm-action").click();
    await expect(card).toHaveCount(0);
  });
}
