import { z } from "zod";
import { bankIdPurposes } from "./bankid-reasons.ts";
import { text } from "./text.ts";

// The constants the login page needs live apart, without zod, so the first load stays small.
export * from "./bankid-reasons.ts";

/**
 * Sign-in with BankID NBU, as the web app and the server share it.
 *
 * The flow: the login page (or "Forgot password") sends the browser to `GET /api/bankid/redirect`
 * (query {@link BankIdRedirectQuery}), which answers 302 to the configured BankID host's authorize URL with
 * `redirect_uri = {PUBLIC_URL}/{lang}/bankid-auth`. BankID returns the browser to that page; the page hands
 * `code` and `state` to the server as a page load of `GET /bankid/auth?code=…&state=…`, which finishes the
 * sign-in (token, resource, envelope, match), sets the session and redirects onwards itself. A sign-in that
 * ends without a session lands on `/{lang}/?bankid_auth_error={reason}` (a recovery attempt on
 * `/{lang}/forgot-password?via=bankid&bankid_auth_error={reason}`), where the page shows the reason's message.
 */

/** `GET /api/bankid/redirect` query. `bank` preselects a bank (an id from `GET /api/banks`). */
export const bankIdRedirectQuerySchema = z.object({
  bank: text().max(64).optional(),
  purpose: z.enum(bankIdPurposes).optional(),
  /** The application the sign-in continues to, as on the Google redirect. */
  appId: text().max(200).optional(),
  state: text().max(1024).optional(),
  redirectUri: text().max(2048).optional(),
});
export type BankIdRedirectQuery = z.infer<typeof bankIdRedirectQuerySchema>;

/** One bank a person may pick (`GET /api/banks`: only banks BankID reports as workable). */
export const bankSummarySchema = z.object({
  id: text(),
  name: text(),
  /** An absolute https (or sandbox http) URL of the bank's logo, or absent. */
  logoUrl: text().optional(),
});
export type BankSummary = z.infer<typeof bankSummarySchema>;

export const banksResponseSchema = z.object({
  banks: z.array(bankSummarySchema),
  /** The list is the last one NBU's node gave (it does not answer now), from `listedAt` (ISO time). */
  stale: z.boolean().optional(),
  listedAt: text().optional(),
});
export type BanksResponse = z.infer<typeof banksResponseSchema>;
