import { appStateMaxLength, forwardAuthRequestHeaders } from "@kpi-id/contracts";
import type { FastifyRequest } from "fastify";
import { cachedApplicationById } from "../../model/apps/cache.ts";
import type { ApplicationRow } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";

/** A site behind nginx, as KPI ID knows it: an operator's application whose callback is on the protected host. */
export interface ProtectedSite {
  application: ApplicationRow;
  /** Where nginx proxies the ticket to (the application's callback URL, `https://host/_kpi-id/callback`). */
  callback: string;
  /** The protected host's origin: the only place a person is ever sent back to. */
  origin: string;
  /** The host's own cookie: `__Host-` over https, so it is host-only, Secure and for the whole site. */
  cookieName: string;
  secure: boolean;
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** The original address nginx saw ($scheme://$http_host$request_uri), set by the documented block. */
export function originalUrl(request: FastifyRequest): string | undefined {
  return headerValue(request, forwardAuthRequestHeaders.originalUrl);
}

/**
 * The site nginx asks about, named by the application id the documented block sets. Only an operator's own
 * application with the nginx setting on qualifies: a developer's (community) application asks the person's consent,
 * which a site that speaks nothing cannot carry, and a suspended one lets nobody in.
 */
export async function protectedSite(request: FastifyRequest): Promise<ProtectedSite> {
  const { applicationCache, db } = request.server;
  const id = headerValue(request, forwardAuthRequestHeaders.application);
  const application = id ? await cachedApplicationById(applicationCache, db, id) : undefined;
  // An application without an absolute callback (an empty one) has no host to protect: not set up, not a 500.
  if (
    !application ||
    application.forward_auth_headers === null ||
    application.community ||
    application.suspended_at ||
    !URL.canParse(application.callback_url)
  ) {
    throw new AppError("forward_auth.not_configured");
  }
  const callback = new URL(application.callback_url);
  const secure = callback.protocol === "https:";
  return {
    application,
    callback: application.callback_url,
    origin: callback.origin,
    cookieName: secure ? "__Host-kpi_id_site" : "kpi_id_site",
    secure,
  };
}

/**
 * Where the person goes back to: the address they asked for when it is on the protected host (and short enough to
 * travel as the ticket's state; a path is taken on the host), else the host's front page. Never another origin: no open redirect.
 */
export function returnAddress(site: ProtectedSite, asked: string | undefined, room = appStateMaxLength): string {
  const front = `${site.origin}/`;
  // A path alone ("/bye") is on the host; "//elsewhere" or another scheme resolves elsewhere and is refused.
  if (!asked || asked.length > room || !URL.canParse(asked, site.origin)) return front;
  const url = new URL(asked, site.origin);
  // Measured after normalising: raw non-ASCII in nginx's $request_uri grows threefold when percent-encoded, and a
  // state longer than the ticket carries would be dropped on the way (the person then lands nowhere in particular).
  return url.origin === site.origin && url.href.length <= room ? url.href : front;
}

/** The host a request came through is the application's own (the ticket's cookie would land elsewhere otherwise). */
export function cameThroughSite(request: FastifyRequest, site: ProtectedSite): boolean {
  const arrived = originalUrl(request);
  return arrived !== undefined && URL.canParse(arrived) && new URL(arrived).origin === site.origin;
}
