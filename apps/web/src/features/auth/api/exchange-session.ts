import { apiFetch } from "@/lib/api-client.ts";

/** Trades a one-time sessionId for the session cookie; nothing of the answer is read. */
export async function exchangeSession(sessionId: string): Promise<void> {
  await apiFetch("/api/auth/internal", { method: "POST", body: { sessionId }, failure: "Failed to authenticate" });
}
