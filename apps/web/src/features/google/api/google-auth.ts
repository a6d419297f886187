import { apiFetch } from "@/lib/api-client.ts";

export class CodeNotSpecifiedError extends Error {
  constructor() {
    super("Code is not specified");
    this.name = "CodeNotSpecifiedError";
  }
}

/** Hands Google's code and state to the server, which sets the session cookie itself. */
export async function completeGoogleAuth(code: string | null, state: string | null): Promise<void> {
  if (!code) throw new CodeNotSpecifiedError();
  const query = new URLSearchParams({ code, state: state ?? "" });
  await apiFetch(`/google/auth?${query}`, { failure: "Failed to login" });
}
