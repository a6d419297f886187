import type { FastifyInstance } from "fastify";
import { TEST_PUBLIC_URL } from "../../support/app.ts";

/** The fields of the IdP's auto-submitting HTTP-POST form, and where it posts. */
export function formOf(html: string) {
  const field = (name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1]?.replace(/&#43;/g, "+");
  return {
    action: html.match(/action="([^"]*)"/)?.[1],
    SAMLResponse: field("SAMLResponse") ?? "",
    SAMLRequest: field("SAMLRequest") ?? "",
    RelayState: field("RelayState"),
  };
}

/** Where a KPI ID answer sends the browser on: a 303, or a page's meta refresh (post-form.ts's sendOnwardPage). */
const onwardOf = (answer: { statusCode: number; headers: Record<string, unknown>; body: string }) =>
  answer.statusCode === 303
    ? String(answer.headers.location)
    : /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(answer.body)?.[1];

/** Follows the IdP from the SP's redirect to the form it posts back. */
export async function browse(app: FastifyInstance, url: string, cookie?: string) {
  const headers = cookie ? { cookie } : {};
  const first = await app.inject({ method: "GET", url: url.replace(TEST_PUBLIC_URL, ""), headers });
  const onward = onwardOf(first);
  if (onward === undefined) return first;
  return app.inject({ method: "GET", url: onward, headers });
}
