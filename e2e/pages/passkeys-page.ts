import type { CDPSession, Locator, Page } from "@playwright/test";
import type { Language } from "./login-page.ts";

const labels = {
  uk: {
    name: "Назва нового ключа доступу",
    add: "Додати ключ доступу",
    remove: "Видалити",
    signIn: "Увійти з ключем доступу",
  },
  en: { name: "Name for a new passkey", add: "Add a passkey", remove: "Remove", signIn: "Sign in with a passkey" },
} as const;

/** Passkeys: their card on the account page and the login screen's button. */
export class PasskeysPage {
  readonly page: Page;
  readonly section: Locator;
  readonly rows: Locator;
  readonly none: Locator;
  readonly name: Locator;
  readonly add: Locator;
  readonly signInButton: Locator;
  readonly signInError: Locator;
  private readonly text: (typeof labels)[Language];

  constructor(page: Page, language: Language = "uk") {
    this.page = page;
    this.text = labels[language];
    this.section = page.getByTestId("account-passkeys");
    this.rows = this.section.getByTestId("passkey");
    this.none = this.section.getByTestId("passkeys-none");
    this.name = this.section.getByLabel(this.text.name);
    this.add = this.section.getByRole("button", { name: this.text.add });
    this.signInButton = page.getByRole("button", { name: this.text.signIn });
    this.signInError = page.getByTestId("passkey-error");
  }

  removeButton(row: Locator): Locator {
    return row.getByRole("button", { name: new RegExp(`^${this.text.remove}`) });
  }
}

export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/**
 * Chromium's virtual authenticator (the DevTools WebAuthn domain): a CTAP2 platform authenticator
 * with resident keys and user verification that approves every prompt.
 */
export class VirtualAuthenticator {
  private readonly cdp: CDPSession;
  readonly id: string;

  private constructor(cdp: CDPSession, id: string) {
    this.cdp = cdp;
    this.id = id;
  }

  static async attach(page: Page): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return new VirtualAuthenticator(cdp, authenticatorId);
  }

  async credentials(): Promise<VirtualCredential[]> {
    return (await this.cdp.send("WebAuthn.getCredentials", { authenticatorId: this.id })).credentials;
  }

  async addCredential(credential: VirtualCredential): Promise<void> {
    await this.cdp.send("WebAuthn.addCredential", { authenticatorId: this.id, credential });
  }

  async remove(): Promise<void> {
    await this.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: this.id });
  }
}

export interface CredentialRequest {
  mediation: string;
  outcome: string;
}

/**
 * Records every navigator.credentials.get() of the page (its mediation and how it ended), so a walk
 * can tell the autofill request from the button's. While localStorage `holdAutofill` is set, an
 * autofill (conditional) request waits for its abort signal instead of reaching the authenticator,
 * as one does while the person has not picked a passkey: the virtual authenticator would answer at once.
 */
export async function recordCredentialRequests(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: CredentialRequest[] = [];
    Object.assign(window, { credentialRequests: calls });
    const realGet = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      const entry = { mediation: options?.mediation ?? "optional", outcome: "pending" };
      calls.push(entry);
      const held = options?.mediation === "conditional" && localStorage.getItem("holdAutofill") === "1";
      const request: Promise<Credential | null> = held
        ? new Promise((_, reject) =>
            options?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
          )
        : realGet(options);
      return request.then(
        (credential) => {
          entry.outcome = "resolved";
          return credential;
        },
        (error: Error) => {
          entry.outcome = error.name;
          throw error;
        },
      );
    };
  });
}

export async function credentialRequests(page: Page): Promise<CredentialRequest[]> {
  return page.evaluate(() => (window as unknown as { credentialRequests: CredentialRequest[] }).credentialRequests);
}

export async function holdAutofill(page: Page, hold: boolean): Promise<void> {
  await page.evaluate((value) => {
    if (value) localStorage.setItem("holdAutofill", "1");
    else localStorage.removeItem("holdAutofill");
  }, hold);
}
