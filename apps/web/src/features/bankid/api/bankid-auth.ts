import {
  appLinkParams,
  BANKID_ERROR_PARAM,
  type BankIdErrorReason,
  type BankIdPurpose,
  type BanksResponse,
  type Language,
} from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";
import { keepParams, localizePath } from "@/lib/paths.ts";

/** Where the browser starts a BankID sign-in: the server answers 302 to BankID's authorize page. */
export const BANKID_REDIRECT_PATH = "/api/bankid/redirect";

/**
 * The application's sign-in link (appId, state, redirectUri) goes along, as on the Google redirect;
 * `purpose` and `bank` only when they say something.
 */
export function bankIdRedirectHref(search: string, purpose: BankIdPurpose = "signin", bank?: string): string {
  const query = new URLSearchParams(keepParams(search, appLinkParams));
  if (purpose === "recovery") query.set("purpose", purpose);
  if (bank) query.set("bank", bank);
  const text = query.toString();
  return text ? `${BANKID_REDIRECT_PATH}?${text}` : BANKID_REDIRECT_PATH;
}

// BankID's answer names no purpose (the server keeps it with the state), so the page that started a
// recovery remembers it for the one case the server never sees: an answer without a code.
const PURPOSE_KEY = "kpi-id.bankid-purpose";

export function rememberBankIdPurpose(purpose: BankIdPurpose): void {
  try {
    sessionStorage.setItem(PURPOSE_KEY, purpose);
  } catch {
    // Storage off: a cancelled recovery then comes back to the login page, which says the same.
  }
}

function takeBankIdPurpose(): BankIdPurpose {
  try {
    const purpose = sessionStorage.getItem(PURPOSE_KEY);
    sessionStorage.removeItem(PURPOSE_KEY);
    return purpose === "recovery" ? "recovery" : "signin";
  } catch {
    return "signin";
  }
}

/**
 * Where the browser hands BankID's answer to the server: GET /bankid/auth with code and state, as a page
 * load; undefined for an answer without a code. The server finishes the sign-in (or the recovery) and
 * redirects onwards itself.
 */
export function bankIdCallbackUrl(search: URLSearchParams): string | undefined {
  const code = search.get("code");
  if (!code) return undefined;
  takeBankIdPurpose();
  return `/bankid/auth?${new URLSearchParams({ code, state: search.get("state") ?? "" })}`;
}

/** The page that shows why an answer without a code ended: the login page, or "Forgot password" for a recovery. */
export function bankIdErrorUrl(language: Language, search: URLSearchParams): string {
  const reason: BankIdErrorReason = search.get("error") === "access_denied" ? "cancelled" : "failed";
  if (takeBankIdPurpose() === "recovery") {
    const query = new URLSearchParams({ via: "bankid", [BANKID_ERROR_PARAM]: reason });
    return `${localizePath(language, "/forgot-password")}?${query}`;
  }
  return `${localizePath(language, "/")}?${new URLSearchParams({ [BANKID_ERROR_PARAM]: reason })}`;
}

export function getBanks(): Promise<BanksResponse> {
  // The login page is in the first load, which keeps zod out: the server checks the answer against the schema.
  return apiJson("/api/banks", { failure: "Failed to load the banks" }, ownAnswer<BanksResponse>());
}

/** The banks BankID reports as workable, asked for when the picker opens. */
export function useBanks(enabled: boolean) {
  return useQuery({ queryKey: ["bankid", "banks"], queryFn: getBanks, enabled, staleTime: 5 * 60_000 });
}
