import type { InternalAuthResponse } from "@kpi-id/contracts";
import { apiJson, ownAnswer } from "@/lib/api-client.ts";

/** Trades a one-time sessionId for the session cookie; answers where the browser goes next. */
export async function exchangeSession(sessionId: string): Promise<string> {
  const { next } = await apiJson(
    "/api/auth/internal",
    { method: "POST", body: { sessionId }, failure: "Failed to authenticate" },
    ownAnswer<InternalAuthResponse>(),
  );
  return next;
}
