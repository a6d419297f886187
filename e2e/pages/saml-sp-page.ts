import type { Locator, Page } from "@playwright/test";

/** Attribute names as the assertion carries them (docs/saml.md). */
export const samlAttributes = {
  eduPersonPrincipalName: "urn:oid:1.3.6.1.4.1.5923.1.1.1.6",
  mail: "urn:oid:0.9.2342.19200300.100.1.3",
  displayName: "urn:oid:2.16.840.1.113730.3.1.241",
  eduPersonScopedAffiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.9",
  eduPersonAffiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.1",
  subjectId: "urn:oasis:names:tc:SAML:attribute:subject-id",
} as const;

/** The service provider built with @node-saml/node-saml (e2e/tools/saml/node-saml-sp.ts). */
export class NodeSamlSpPage {
  readonly page: Page;
  readonly url: string;
  readonly nameId: Locator;
  readonly authnContext: Locator;
  readonly error: Locator;
  readonly notSignedIn: Locator;
  /** Its home page when it holds no session. */
  readonly anonymous: Locator;
  readonly signOut: Locator;
  readonly signedOut: Locator;

  constructor(page: Page, url: string) {
    this.page = page;
    this.url = url;
    this.notSignedIn = page.getByTestId("sp-not-signed-in");
    this.anonymous = page.getByTestId("sp-signed-out");
    this.nameId = page.getByTestId("sp-name-id");
    this.authnContext = page.getByTestId("sp-authn-context");
    this.error = page.getByTestId("sp-error");
    this.signOut = page.getByRole("link", { name: "Sign out" });
    this.signedOut = page.getByTestId("sp-logged-out");
  }

  /** Starts a sign-in: force (ForceAuthn), passive (IsPassive), mfa (RequestedAuthnContext REFEDS MFA). */
  async signIn(options: { force?: boolean; passive?: boolean; mfa?: boolean } = {}): Promise<void> {
    const query = new URLSearchParams(
      Object.entries(options).flatMap(([name, on]) => (on ? [[name, "1"]] : [])),
    ).toString();
    await this.page.goto(`${this.url}/login${query ? `?${query}` : ""}`);
  }

  attribute(name: string): Locator {
    return this.page.locator(`[data-attribute="${name}"]`);
  }

  async waitForHome(): Promise<void> {
    await this.page.waitForURL(`${this.url}/`);
  }

  async openHome(): Promise<void> {
    await this.page.goto(`${this.url}/`);
  }
}

/** Apache with mod_auth_mellon (e2e/tools/saml/mellon.ts). */
export class MellonSpPage {
  readonly page: Page;
  readonly url: string;
  readonly nameId: Locator;
  readonly signOut: Locator;
  readonly signedOut: Locator;

  constructor(page: Page, url: string) {
    this.page = page;
    this.url = url;
    this.nameId = page.getByTestId("mellon-name-id");
    this.signOut = page.getByRole("link", { name: "Sign out" });
    this.signedOut = page.getByTestId("mellon-signed-out");
  }

  async openSecure(): Promise<void> {
    await this.page.goto(`${this.url}/secure/`);
  }

  /** mellon's own login endpoint with IsPassive: without an IdP session it comes back to ReturnTo. */
  async signInPassively(): Promise<void> {
    await this.page.goto(
      `${this.url}/mellon/login?ReturnTo=${encodeURIComponent(`${this.url}/signed-out.html`)}&IsPassive=true`,
    );
  }

  attribute(name: string): Locator {
    return this.page.locator(`[data-attribute="${name}"]`);
  }
}

/** Apache with mod_shib and shibd, Debian's Shibboleth SP 3 (e2e/tools/saml/shibboleth.ts). */
export class ShibbolethSpPage {
  readonly page: Page;
  readonly url: string;
  readonly authnContext: Locator;
  readonly session: Locator;

  constructor(page: Page, url: string) {
    this.page = page;
    this.url = url;
    this.authnContext = page.getByTestId("shibboleth-authn-context");
    this.session = page.getByTestId("shibboleth-session");
  }

  /** A page that needs a session: without one, Shibboleth starts a sign-in at KPI ID. */
  async openSecure(): Promise<void> {
    await this.page.goto(`${this.url}/secure/`);
  }

  /** Shibboleth's own session initiator, with its forceAuthn or isPassive flag, returning to `target`. */
  async logIn(options: { forceAuthn?: boolean; isPassive?: boolean; target: "/secure/" | "/public/" }): Promise<void> {
    const query = new URLSearchParams({ target: `${this.url}${options.target}` });
    if (options.forceAuthn) query.set("forceAuthn", "1");
    if (options.isPassive) query.set("isPassive", "1");
    await this.page.goto(`${this.url}/Shibboleth.sso/Login?${query}`);
  }

  /** The same sign-in by the HTTP-POST binding (the LoginPost session initiator), returning to /secure/. */
  async logInByPost(): Promise<void> {
    await this.page.goto(
      `${this.url}/Shibboleth.sso/LoginPost?${new URLSearchParams({ target: `${this.url}/secure/` })}`,
    );
  }

  attribute(id: string): Locator {
    return this.page.locator(`[data-attribute="${id}"]`);
  }
}
