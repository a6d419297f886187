import type { Language } from "../pages/login-page.ts";
import { demoOidcCredentials } from "./oidc-relying-party.ts";

/** A device code for the demo client (it may use the device flow), asked as the manual's device.mjs asks. */
export async function askForDeviceCode(baseURL: string, language: Language) {
  const { id, secret } = demoOidcCredentials();
  const response = await fetch(`${baseURL}/oidc/device/auth`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ scope: "openid profile", ui_locales: language }),
  });
  if (!response.ok) throw new Error(`no device code: ${response.status} ${await response.text()}`);
  return (await response.json()) as { user_code: string; verification_uri_complete: string; device_code: string };
}
