import {
  appLinkParams,
  type Institution,
  type InstitutionStartRequest,
  type InstitutionsResponse,
  type InstitutionWelcome,
  type InternalAuthResponse,
} from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

export function useInstitutions(words: string) {
  return useQuery({
    queryKey: ["institutions", words],
    queryFn: () =>
      apiJson(
        `/api/institutions?${new URLSearchParams({ q: words })}`,
        { failure: "Failed to load the institutions" },
        ownAnswer<InstitutionsResponse>(),
      ),
    staleTime: 60_000,
  });
}

/**
 * Starts the sign-in at the institution; answers the address of its sign-in page. An application's sign-in link
 * (appId, state, redirectUri) goes along and waits on the server for the person's return.
 */
export function startAtInstitution(entityId: string, search: string, purpose: "sign-in" | "link" = "sign-in") {
  const query = new URLSearchParams(search);
  const body: InstitutionStartRequest = { entityId, purpose };
  for (const name of appLinkParams) {
    const value = query.get(name);
    if (value) body[name] = value;
  }
  return apiJson(
    "/api/institution/start",
    { method: "POST", body, failure: "Failed to start signing in" },
    ownAnswer<{ redirect: string }>(),
  );
}

export function useWelcome(request: string) {
  return useQuery({
    queryKey: ["institution", "welcome", request],
    queryFn: () =>
      apiJson(
        `/api/institution/welcome?${new URLSearchParams({ request })}`,
        { failure: "Failed to load the sign-in" },
        ownAnswer<InstitutionWelcome>(),
      ),
    retry: false,
  });
}

export function acceptVisitor(request: string) {
  return apiJson(
    "/api/institution/accept",
    { method: "POST", body: { request }, failure: "Failed to make the account" },
    ownAnswer<InternalAuthResponse>(),
  );
}

// The last institution chosen on this device, offered first next time (as SeamlessAccess does).
const lastChoiceKey = "kpi-id:last-institution";

export function rememberInstitution(institution: Institution): void {
  try {
    localStorage.setItem(lastChoiceKey, JSON.stringify(institution));
  } catch {
    // Storage may be off (private mode): the choice is simply not remembered.
  }
}

export function lastInstitution(): Institution | undefined {
  try {
    const value = JSON.parse(localStorage.getItem(lastChoiceKey) ?? "null") as Institution | null;
    return value && typeof value.entityId === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
