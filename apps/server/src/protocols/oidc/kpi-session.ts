import type { IncomingMessage } from "node:http";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { loadSession } from "../../model/sessions/load.ts";
import type { LoadedSession } from "../../model/sessions/store.ts";
import { lastAuthenticatedAt, sessionAcr, sessionAmr } from "../../model/sessions/strength.ts";
import type { Config } from "../../platform/config/index.ts";
import type { Db } from "../../platform/db/schema.ts";
import { sessionCookieName } from "../../platform/http/session-cookie.ts";
import { currentOidcMemory } from "./request-memory.ts";

export interface KpiSessionOptions {
  config: Config;
  db: Db;
  clock: () => Date;
}

type Koa = Pick<KoaContextWithOIDC, "cookies" | "req">;

/** The KPI ID session cookie a provider request carries (its token), if any. */
export function kpiSessionToken(ctx: Pick<Koa, "cookies">, config: Config): string | undefined {
  const token = ctx.cookies.get(sessionCookieName(config), { signed: false });
  return token && token.length <= 128 ? token : undefined;
}

// Loaded once per request: the session mirror and the login check both ask.
const loaded = new WeakMap<IncomingMessage, Promise<LoadedSession | undefined>>();

/** Clears the KPI ID session cookie (the attributes it was set with: platform/http/session-cookie.ts). */
export function clearKpiSessionCookie(ctx: Pick<Koa, "cookies">, config: Config): void {
  ctx.cookies.set(sessionCookieName(config), null, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    signed: false,
  });
}

/**
 * The live KPI ID session of the request, if any. A cookie that names no live session is cleared, as the
 * server's own routes do (sign-in/session/current.ts): the interaction route sends a browser with a session cookie
 * straight back to the provider (interaction-routes.ts), so a dead one must not outlive this answer.
 */
export function kpiSessionOf(ctx: Koa, { config, db, clock }: KpiSessionOptions): Promise<LoadedSession | undefined> {
  let session = loaded.get(ctx.req);
  if (!session) {
    const token = kpiSessionToken(ctx, config);
    session = token
      ? loadSession(db, token, config.sessions, clock()).then((live) => {
          if (!live) clearKpiSessionCookie(ctx, config);
          // The request's later reads take the person from here (request-memory.ts, claims.ts).
          const memory = currentOidcMemory();
          if (live && memory) memory.person = live.user;
          return live;
        })
      : Promise.resolve(undefined);
    loaded.set(ctx.req, session);
  }
  return session;
}

/**
 * When the person last proved who they are in this KPI ID session: its start (every sign-in starts
 * a new one), or a later step-up to a second factor.
 */
export function signInTime(session: LoadedSession): number {
  return Math.floor(lastAuthenticatedAt(session).getTime() / 1000);
}

/** What the provider's login records for a KPI ID session: `auth_time`, `amr` and `acr` of the ID token. */
export function providerLogin(session: LoadedSession) {
  return {
    accountId: session.userId,
    ts: signInTime(session),
    amr: [...sessionAmr(session)],
    acr: sessionAcr(session),
  };
}

type ProviderSession = Awaited<ReturnType<Provider["Session"]["get"]>> & {
  loginTs?: number;
  touched?: boolean;
};

/**
 * The provider's session follows the KPI ID session of the browser: whoever is signed in to
 * KPI ID is signed in to the provider, with the KPI ID sign-in time (`auth_time`, `max_age`)
 * and method (`amr`), whether or not an OpenID Connect interaction ever ran in this browser
 * (so `prompt=none` works right after signing in to KPI ID). A different person starts with no
 * applications signed in. Without a KPI ID session the login check (provider.ts) asks again.
 */
export function mirrorKpiSession(provider: Provider, options: KpiSessionOptions): void {
  const Session = provider.Session as unknown as { get(ctx: Koa): Promise<ProviderSession> };
  const read = Session.get.bind(Session);
  Session.get = async (ctx) => {
    const session = await read(ctx);
    const kpi = await kpiSessionOf(ctx, options);
    if (!kpi) return session;
    const loginTs = signInTime(kpi);
    if (session.accountId === kpi.userId && session.loginTs === loginTs) return session;
    if (session.accountId && session.accountId !== kpi.userId) session.authorizations = {};
    const { accountId, amr, acr } = providerLogin(kpi);
    // Transient, as the interaction's `remember: false`: the provider's cookie then has no lifetime of its own
    // (oidc-provider's default is 14 days); the KPI ID session's cookie decides, and restores it here.
    session.loginAccount({ accountId, loginTs, amr, acr, transient: true });
    session.touched = true;
    return session;
  };
}
