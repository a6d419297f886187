import type { DeviceForm, DeviceRequest, ErrorBody } from "@kpi-id/contracts";
import { TestBrowser } from "./oidc.ts";

/** An application's credentials at the provider (client_secret_basic). */
export interface DeviceClient {
  id: string;
  secret: string;
}

export interface DeviceCodeAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval?: number;
}

const basic = (credentials: DeviceClient) =>
  `Basic ${Buffer.from(`${credentials.id}:${credentials.secret}`).toString("base64")}`;

const formHeaders = (credentials: DeviceClient) => ({
  authorization: basic(credentials),
  "content-type": "application/x-www-form-urlencoded",
});

/** The device's side of RFC 8628: ask for a code, then poll the token endpoint with it. */
export function deviceOf(issuer: string, credentials: DeviceClient) {
  return {
    async askForCode(params: Record<string, string> = { scope: "openid profile" }) {
      const response = await fetch(`${issuer}/device/auth`, {
        method: "POST",
        headers: formHeaders(credentials),
        body: new URLSearchParams(params),
      });
      return { status: response.status, body: (await response.json()) as DeviceCodeAnswer & { error?: string } };
    },
    async poll(deviceCode: string) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: formHeaders(credentials),
        body: new URLSearchParams({
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          device_code: deviceCode,
        }),
      });
      const body = (await response.json()) as { error?: string; id_token?: string; access_token?: string };
      return { status: response.status, body };
    },
  };
}

/** The subject of an ID token (read, not verified: the test only asks whose it is). */
export function idTokenSubject(idToken: string | undefined): string | undefined {
  const payload = idToken?.split(".")[1];
  return payload ? (JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub?: string }).sub : undefined;
}

/** The web app's device page, as its calls reach the provider (`/oidc/device`), in a test browser. */
export class DevicePage {
  readonly browser: TestBrowser;
  private readonly headers: Record<string, string>;

  /** `language` is the web app's choice, its `i18next` cookie. */
  constructor(browser: TestBrowser, language?: "uk" | "en") {
    this.browser = browser;
    if (language) browser.setCookie(`i18next=${language}`);
    this.headers = {};
  }

  async form(): Promise<{ status: number; body: DeviceForm & Partial<ErrorBody> }> {
    const response = await this.browser.request("/oidc/device", {
      headers: { accept: "application/json", ...this.headers },
    });
    return { status: response.status, body: await response.json() };
  }

  /** POST /oidc/device as the page's fetch does: the form token and the typed code, JSON asked back. */
  async post(fields: Record<string, string>, accept = "application/json"): Promise<Response> {
    return this.browser.request("/oidc/device", {
      method: "POST",
      headers: { accept, "content-type": "application/x-www-form-urlencoded", ...this.headers },
      body: new URLSearchParams(fields),
    });
  }

  async lookUp(userCode: string): Promise<{ status: number; body: DeviceRequest & Partial<ErrorBody> }> {
    const { body: form } = await this.form();
    const response = await this.post({ xsrf: form.xsrf, user_code: userCode });
    return { status: response.status, body: await response.json() };
  }

  /**
   * Allow (`confirm`) or Deny (`abort`) as the page's real form post does, following the redirects on
   * KPI ID's origin (the interaction, the device resume); answers where the browser ends.
   */
  async answer(userCode: string, answer: "confirm" | "abort"): Promise<URL> {
    const looked = await this.lookUp(userCode);
    const response = await this.post({ xsrf: looked.body.xsrf, user_code: userCode, [answer]: "yes" }, "text/html");
    let location = response.headers.get("location");
    for (let hop = 0; location && hop < 10; hop += 1) {
      const target = new URL(location, "http://kpi-id.invalid");
      if (target.pathname.endsWith("/device") && !target.pathname.startsWith("/oidc")) return target;
      const next = await this.browser.request(target.pathname + target.search, {
        headers: { accept: "text/html", ...this.headers },
      });
      location = next.headers.get("location");
    }
    throw new Error(`the answer did not return to the device page: ${response.status} ${location}`);
  }
}

export { TestBrowser };
