import { readFile } from "node:fs/promises";
import { join } from "node:path";

export interface AppCredentials {
  id: string;
  secret: string;
}

/** What GET /api/ticket answers (the KPI ID ticket protocol). */
export interface TicketAnswer {
  id: string;
  created: string;
  applicationId: string;
  traceId: string;
  data: Record<"NAME" | "TAX_ID" | "STUDENT_ID" | "EMPLOYEE_ID" | "AUTH_METHOD" | "TRACE_ID" | "TIME_STAMP", string>;
}

/** The demo applications' ids and secrets, written by the product's demo seed. */
export async function readCredentials(dataDir: string, name: string): Promise<AppCredentials | undefined> {
  const text = await readFile(join(dataDir, "demo-apps.json"), "utf8").catch(() => undefined);
  if (!text) return undefined;
  const all = JSON.parse(text) as Record<string, AppCredentials | undefined>;
  return all[name];
}

export class TicketRejectedError extends Error {
  override name = "TicketRejectedError";
  readonly status: number;
  constructor(status: number, detail: string) {
    super(`KPI ID rejected the ticket (${status}): ${detail}`);
    this.status = status;
  }
}

/**
 * Redeems a ticket server-to-server, at once (it lives 60 s and works once).
 * The secret goes in an Authorization header, never in the URL, where logs would keep it.
 */
export async function redeemTicket(productUrl: string, app: AppCredentials, ticketId: string): Promise<TicketAnswer> {
  const url = new URL("/api/ticket", productUrl);
  url.searchParams.set("ticketId", ticketId);
  const basic = Buffer.from(`${app.id}:${app.secret}`).toString("base64");
  const response = await fetch(url, {
    headers: { authorization: `Basic ${basic}`, accept: "application/json" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new TicketRejectedError(response.status, await response.text());
  return (await response.json()) as TicketAnswer;
}
