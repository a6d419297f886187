import { expect, type Locator, type Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    notFound: "Такої особи немає.",
    nobody: "Нікого не знайдено.",
    notLocked: "Невдалих спроб пароля на цьому обліковому записі немає.",
    assign: "Передати",
    unitAdmin: "адміністратор підрозділу",
    unitHelpdesk: "служба підтримки підрозділу",
    grant: "Надати роль",
    letDecide: "Дозволити підрозділу вирішувати",
  },
  en: {
    notFound: "There is no such person.",
    nobody: "Nobody matches.",
    notLocked: "No failed password guesses are held against this account.",
    assign: "Assign",
    unitAdmin: "unit admin",
    unitHelpdesk: "unit helpdesk",
    grant: "Give the role",
    letDecide: "Let the unit decide",
  },
} as const;

/**
 * What a unit admin sees of the console (issue 79): the sections their role reaches, the unit pickers on the
 * application screens, a person out of reach as nobody.
 */
export class ConsoleUnitsPage {
  readonly page: Page;
  readonly language: Language;
  readonly operator: Locator;
  readonly nav: Locator;
  readonly throttleState: Locator;
  readonly notFound: Locator;
  readonly nobody: Locator;
  readonly applicationUnit: Locator;
  readonly rules: Locator;
  readonly unitRoles: Locator;
  readonly unitRoleList: Locator;
  readonly unitsDeciding: Locator;
  readonly unitsDecidingList: Locator;
  readonly noUnitDecides: Locator;

  constructor(page: Page, language: Language) {
    this.page = page;
    this.language = language;
    this.operator = page.getByTestId("console-operator");
    this.nav = page.getByRole("navigation", { name: language === "uk" ? "Розділи консолі" : "Console sections" });
    this.throttleState = page.getByTestId("throttle-state");
    this.notFound = page.getByText(labels[language].notFound);
    this.nobody = page.getByTestId("people-table").getByText(labels[language].nobody);
    this.applicationUnit = page.getByTestId("application-unit-current");
    this.rules = page.getByTestId("rules-list");
    this.unitRoles = page.getByTestId("person-unit-roles");
    this.unitRoleList = page.getByTestId("unit-role-list");
    this.unitsDeciding = page.getByTestId("units-deciding-reviews");
    this.unitsDecidingList = page.getByTestId("units-deciding-list");
    this.noUnitDecides = page.getByTestId("units-deciding-none");
  }

  get text() {
    return labels[this.language];
  }

  /** The names of the console's sections the operator is shown. */
  async sections(): Promise<string[]> {
    return (await this.nav.getByRole("link").allTextContents()).map((name) => name.trim());
  }

  /** In the unit picker `testId`, searches for `query` and chooses the unit whose code is `code`. */
  async pickUnit(testId: string, query: string, code: string): Promise<void> {
    const picker = this.page.getByTestId(testId);
    await picker.getByTestId(`${testId}-search`).fill(query);
    await picker.getByRole("radio", { name: new RegExp(`^${code} `) }).check();
  }

  /** The options a unit picker offers now: each unit's code. */
  async pickerCodes(testId: string): Promise<string[]> {
    const options = this.page.getByTestId(`${testId}-options`).locator("label");
    // The units arrive after the screen: read them once the first is there (allTextContents does not wait).
    await options.first().waitFor();
    return (await options.allTextContents()).map((text) => text.trim().split(" ")[0] ?? "");
  }

  /** Adds an access rule for a unit found in the rule's unit picker (with its sub-units, any affiliation). */
  async addRuleForUnit(query: string, code: string): Promise<void> {
    await this.pickUnit("rule-unit", query, code);
    await this.page.getByTestId("rule-add").click();
  }

  /** On a person's screen, an admin gives them `role` in the unit a search for `query` finds by `code`. */
  async grantUnitRole(role: "unit_admin" | "unit_helpdesk", query: string, code: string): Promise<void> {
    await this.unitRoles.getByTestId("unit-role-name").selectOption(role);
    await this.pickUnit("unit-role-unit", query, code);
    await this.unitRoles.getByRole("button", { name: this.text.grant }).click();
  }

  /** Takes the person's first role in a unit away, confirming the question it asks. */
  async revokeFirstUnitRole(): Promise<void> {
    await this.unitRoleList.getByRole("button").first().click();
    await this.page.getByTestId("confirm-action").click();
  }

  /** On the review screen, an admin lets the unit a search for `query` finds by `code` decide its reviews. */
  async letUnitDecide(query: string, code: string): Promise<void> {
    await this.pickUnit("units-deciding-unit", query, code);
    await this.unitsDeciding.getByRole("button", { name: this.text.letDecide }).click();
    await this.page.getByTestId("confirm-action").click();
  }

  /** Takes the first unit's own decisions back, confirming the question it asks. */
  async takeBackFirstUnitDeciding(): Promise<void> {
    await this.unitsDecidingList.getByRole("button").first().click();
    await this.page.getByTestId("confirm-action").click();
  }

  async waitForPersonScreen(fullName: string): Promise<void> {
    await expect(this.page.getByTestId("person-name")).toBeVisible();
    await expect(this.page.getByTestId("person-name")).toHaveText(fullName);
  }
}
