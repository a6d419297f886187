import { radiusPaths } from "@kpi-id/contracts";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    name: "Назва пристрою",
    create: "Створити пароль",
    revoke: "Відкликати",
    done: "Я його ввів(-ла)",
    copy: "Скопіювати пароль",
    rename: "Перейменувати",
    newName: (name: string) => `Нова назва для «${name}»`,
    save: "Зберегти назву",
  },
  en: {
    name: "Device name",
    create: "Create password",
    revoke: "Revoke",
    done: "I have entered it",
    copy: "Copy password",
    rename: "Rename",
    newName: (name: string) => `New name for “${name}”`,
    save: "Save name",
  },
} as const;

/** The account page's Wi-Fi (eduroam) passwords card. */
export class WifiPage {
  readonly page: Page;
  readonly section: Locator;
  readonly rows: Locator;
  readonly none: Locator;
  readonly name: Locator;
  readonly create: Locator;
  /** The new password's panel: shown once, with its QR code. */
  readonly created: Locator;
  readonly createdPassword: Locator;
  readonly qrCode: Locator;
  readonly copy: Locator;
  readonly done: Locator;
  private readonly text: (typeof labels)[Language];

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.text = labels[language];
    this.section = page.getByTestId("account-wifi");
    this.rows = this.section.getByTestId("wifi-password");
    this.none = this.section.getByTestId("wifi-none");
    this.name = this.section.getByLabel(this.text.name);
    this.create = this.section.getByRole("button", { name: this.text.create });
    this.created = this.section.getByTestId("wifi-new");
    this.createdPassword = this.section.getByTestId("wifi-new-password");
    this.qrCode = this.created.getByRole("img");
    this.copy = this.created.getByRole("button", { name: this.text.copy });
    this.done = this.created.getByRole("button", { name: this.text.done });
  }

  renameButton(row: Locator): Locator {
    return row.getByRole("button", { name: new RegExp(`^${this.text.rename}`) });
  }

  /** The rename form's field, labelled with the name it replaces. */
  renameField(row: Locator, name: string): Locator {
    return row.getByLabel(this.text.newName(name));
  }

  saveName(row: Locator): Locator {
    return row.getByRole("button", { name: this.text.save });
  }

  /** The row's recent uses, folded under a summary. */
  uses(row: Locator): Locator {
    return row.getByTestId("wifi-uses");
  }

  revokeButton(row: Locator): Locator {
    return row.getByRole("button", { name: new RegExp(`^${this.text.revoke}`) });
  }

  /** The confirmation the revoke button asks for. */
  confirmRevoke(): Locator {
    return this.page.getByRole("dialog").getByTestId("confirm-action");
  }
}

/**
 * One device joining Wi-Fi the way FreeRADIUS asks KPI ID (TTLS/PAP, then post-auth records the use with its
 * access point): the e2e KPI ID has RADIUS_REST_SECRET, so the account page has uses to show.
 */
export async function joinWifi(
  request: APIRequestContext,
  origin: string,
  secret: string,
  device: { identity: string; password: string; accessPoint: string; station: string },
): Promise<void> {
  const attributes = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { type: "string", value: [value] }]));
  const facts = {
    "User-Name": device.identity,
    "Calling-Station-Id": device.station,
    "Called-Station-Id": device.accessPoint,
  };
  const headers = { "x-kpi-id-radius-secret": secret };
  const checked = await request.post(`${origin}${radiusPaths.authenticate}`, {
    headers,
    data: attributes({ ...facts, "User-Password": device.password }),
  });
  if (checked.status() !== 200) throw new Error(`authenticate answered ${checked.status()}`);
  const { "request:KPI-ID-Network-Password": passwordId } = (await checked.json()) as Record<string, string>;
  const used = await request.post(`${origin}${radiusPaths.postAuth}`, {
    headers,
    data: attributes({ ...facts, "KPI-ID-Network-Password": passwordId ?? "" }),
  });
  if (used.status() !== 200) throw new Error(`post-auth answered ${used.status()}`);
}

const consoleLabels = {
  uk: { off: "Вимкнути Wi-Fi", on: "Увімкнути Wi-Fi" },
  en: { off: "Turn Wi-Fi off", on: "Turn Wi-Fi on" },
} as const;

/** The console's Wi-Fi card on a person's screen. */
export class ConsoleWifi {
  readonly section: Locator;
  readonly state: Locator;
  readonly turnOff: Locator;
  readonly turnOn: Locator;
  readonly confirm: Locator;

  constructor(page: Page, language: Language = "uk") {
    this.section = page.getByTestId("person-wifi");
    this.state = page.getByTestId("person-wifi-state");
    this.turnOff = this.section.getByRole("button", { name: consoleLabels[language].off });
    this.turnOn = this.section.getByRole("button", { name: consoleLabels[language].on });
    this.confirm = page.getByRole("dialog").getByTestId("confirm-action");
  }
}
