import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { findGoogleAccount, googleAccounts } from "./accounts.ts";
import { accountChooserPage, problemPage } from "./pages.ts";

const FORM_LIMIT_BYTES = 4096;
const route = /^\/interaction\/([\w-]{1,64})(\/login|\/abort)?$/;

class FormTooLargeError extends Error {}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) throw new FormTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http:; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
  });
  response.end(html);
}

/** Grants what the client asked for: the stand-in has no consent screen. */
async function grantRequestedScopes(provider: Provider, accountId: string, clientId: string, scope: string) {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope(scope);
  return grant.save();
}

async function showChooser(provider: Provider, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  const { prompt, params, session } = details;
  if (prompt.name === "consent" && session?.accountId) {
    const grantId = await grantRequestedScopes(
      provider,
      session.accountId,
      String(params.client_id),
      String(params.scope),
    );
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  const client = await provider.Client.find(String(params.client_id));
  sendHtml(response, 200, accountChooserPage(details.uid, client?.clientName ?? "KPI ID", googleAccounts));
}

type InteractionDetails = Awaited<ReturnType<Provider["interactionDetails"]>>;

/**
 * Picking another account than the one the provider remembers ends the old
 * provider session first (as Google's account chooser does), instead of
 * oidc-provider's detour through a logout confirmation.
 */
async function forgetOtherAccount(provider: Provider, details: InteractionDetails, chosen: string): Promise<void> {
  const previous = details.session;
  if (!previous?.accountId || previous.accountId === chosen) return;
  const session = await provider.Session.findByUid(previous.uid);
  await session?.destroy();
  delete details.session;
  await details.save(Math.max(1, (details.exp ?? 0) - Math.floor(Date.now() / 1000)));
}

async function chooseAccount(provider: Provider, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  const account = findGoogleAccount((await readForm(request)).get("sub") ?? "");
  if (!account) {
    sendHtml(response, 400, problemPage("Choose one of the listed accounts."));
    return;
  }
  await forgetOtherAccount(provider, details, account.sub);
  const grantId = await grantRequestedScopes(
    provider,
    account.sub,
    String(details.params.client_id),
    String(details.params.scope),
  );
  await provider.interactionFinished(
    request,
    response,
    { login: { accountId: account.sub }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

async function abort(provider: Provider, request: IncomingMessage, response: ServerResponse): Promise<void> {
  await provider.interactionFinished(
    request,
    response,
    { error: "access_denied", error_description: "The person cancelled the sign-in" },
    { mergeWithLastSubmission: false },
  );
}

/**
 * The stand-in's own pages: Google's account chooser. Answers true when the
 * request was one of them; everything else is the provider's.
 */
export async function handleInteraction(
  provider: Provider,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const path = new URL(request.url ?? "/", "http://stand-in").pathname;
  const match = route.exec(path);
  if (!match) return false;
  const action = match[2];
  try {
    if (request.method === "GET" && !action) await showChooser(provider, request, response);
    else if (request.method === "POST" && action === "/login") await chooseAccount(provider, request, response);
    else if (request.method === "POST" && action === "/abort") await abort(provider, request, response);
    else sendHtml(response, 405, problemPage("This page does not accept that request."));
  } catch (error) {
    if (error instanceof FormTooLargeError) sendHtml(response, 413, problemPage("The form was too large."));
    else sendHtml(response, 400, problemPage("This sign-in has expired or was already used. Start again from KPI ID."));
  }
  return true;
}
