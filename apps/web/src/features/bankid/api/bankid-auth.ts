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
const BANKID_REDIRECT_PATH = "/api/bankid/redirect";

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

// What BankID's answer may carry that the server reads: the code, or why there is none, and the state.
const answerParams = ["code", "state", "error", "error_description"] as const;

/**
 * Where the browser hands BankID's answer to the server: GET /bankid/auth with the code (or BankID's error)
 * and the state, as a page load. The server knows from the state what the sign-in was for, finishes it
 * (a session, or the password reset) or words the failure, and redirects onwards itself. Undefined for
 * an answer with neither code nor error.
 */
export function bankIdCallbackUrl(search: URLSearchParams, language: Language): string | undefined {
  if (!search.get("code") && !search.get("error")) return undefined;
  const query = new URLSearchParams();
  for (const name of answerParams) {
    const value = search.get(name);
    if (value) query.set(name, value);
  }
  // The page's language, for an answer the server can no longer tie to a pending sign-in (a replayed code).
  query.set("lang", language);
  return `/bankid/auth?${query}`;
}

/** The login page with the general BankID alert, for an answer that brought nothing to hand over. */
export function bankIdErrorUrl(language: Language): string {
  const reason: BankIdErrorReason = "failed";
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
