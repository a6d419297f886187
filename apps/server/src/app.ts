import type { Server } from "node:http";
import cookie from "@fastify/cookie";
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { ApplicationCache } from "./model/apps/cache.ts";
import { countPendingDiiaRequests } from "./model/diia/requests.ts";
import { SessionCache } from "./model/sessions/cache.ts";
import { SignOutParticipants } from "./model/sessions/sign-out.ts";
import { stopImportJobsForShutdown } from "./model/users/import-jobs.ts";
import { type CacheFeed, connectCacheFeed } from "./platform/cache/feed.ts";
import type { Config } from "./platform/config/index.ts";
import { createPasswordHasher, type PasswordHasher } from "./platform/crypto/password.ts";
import type { Database, DatabaseHandle } from "./platform/db/index.ts";
import { registerJsonParser } from "./platform/http/body-parsers.ts";
import { registerApiDocs } from "./platform/http/docs.ts";
import { registerErrorHandling } from "./platform/http/error-handler.ts";
import { loggerOptions } from "./platform/http/logging.ts";
import { registerMetrics } from "./platform/http/metrics-endpoint.ts";
import { registerOpenApi } from "./platform/http/openapi.ts";
import { registerQuietCollection } from "./platform/http/quiet-collection.ts";
import { registerSecurity } from "./platform/http/security.ts";
import { createMailer, type Mailer } from "./platform/mail/mailer.ts";
import { requestSpanNaming } from "./platform/tracing/hooks.ts";
import { AccountCache } from "./protocols/oidc/account-cache.ts";
import { AccessTokenCache } from "./protocols/oidc/token-cache.ts";
import type { ProtocolName, ProtocolRecord } from "./protocols/record.ts";
import { protocols as everyProtocol } from "./protocols/registry.ts";
import { registerBankId } from "./sign-in/bankid/plugin.ts";
import { registerDiia } from "./sign-in/diia/plugin.ts";
import { googleRoutes } from "./sign-in/google/routes.ts";
import { grantExchangeRoutes } from "./sign-in/grants/exchange-routes.ts";
import { guestInvitationRoutes } from "./sign-in/guests/routes.ts";
import { secondFactorRoutes } from "./sign-in/mfa/routes.ts";
import { passkeyRoutes } from "./sign-in/passkeys/routes.ts";
import { passwordRoutes } from "./sign-in/password/routes.ts";
import { recoveryRoutes } from "./sign-in/recovery/routes.ts";
import { registerSessions } from "./sign-in/session/current.ts";
import { accountApplicationRoutes } from "./surfaces/account/application-routes.ts";
import { accountGuestRoutes } from "./surfaces/account/guest-routes.ts";
import { accountLdapRoutes } from "./surfaces/account/ldap-routes.ts";
import { accountPasswordRoutes } from "./surfaces/account/password-routes.ts";
import { accountPersonalDataRoutes } from "./surfaces/account/personal-data-routes.ts";
import { accountSessionRoutes } from "./surfaces/account/routes.ts";
import { signOutRoutes } from "./surfaces/account/sign-out-routes.ts";
import { accountWifiRoutes } from "./surfaces/account/wifi-routes.ts";
import { adminAccessRuleRoutes } from "./surfaces/admin/access-rule-routes.ts";
import { adminApplicationDetailRoutes } from "./surfaces/admin/application-detail-routes.ts";
import { adminApplicationRoutes } from "./surfaces/admin/application-routes.ts";
import { adminAuditRoutes } from "./surfaces/admin/audit-routes.ts";
import { adminCasServiceRoutes } from "./surfaces/admin/cas-service-routes.ts";
import { adminGuestRoutes } from "./surfaces/admin/guest-routes.ts";
import { adminImportRoutes } from "./surfaces/admin/import-routes.ts";
import { adminLdapRoutes } from "./surfaces/admin/ldap-routes.ts";
import { adminPeopleRoutes } from "./surfaces/admin/people-routes.ts";
import { adminPersonErasureRoutes } from "./surfaces/admin/person-erasure-routes.ts";
import { adminPersonRecoveryRoutes } from "./surfaces/admin/person-recovery-routes.ts";
import { adminReviewRoutes } from "./surfaces/admin/review-routes.ts";
import { adminServiceRoutes } from "./surfaces/admin/service-routes.ts";
import { adminUnitRoleRoutes } from "./surfaces/admin/unit-role-routes.ts";
import { adminWifiRoutes } from "./surfaces/admin/wifi-routes.ts";
import { developerChangeRoutes } from "./surfaces/developers/change-routes.ts";
import { developerConsoleRoutes } from "./surfaces/developers/console-routes.ts";
import { developerMembershipRoutes } from "./surfaces/developers/membership-routes.ts";
import { developerPeopleRoutes } from "./surfaces/developers/people-routes.ts";
import { developerRoutes } from "./surfaces/developers/routes.ts";
import { watchedCertificates } from "./surfaces/doctor/certificates.ts";
import { healthRoutes } from "./surfaces/health/routes.ts";
import { scheduleCleanup } from "./surfaces/maintenance/cleanup.ts";
import { userRoutes } from "./surfaces/user-api/routes.ts";
import { continuingRoutes } from "./surfaces/web/continuing-routes.ts";
import { missingTranslationRoutes } from "./surfaces/web/missing-translations.ts";
import { settingsRoutes } from "./surfaces/web/settings-routes.ts";
import { registerSigninScript } from "./surfaces/web/signin-script.ts";
import { registerWebApp, resolveWebDist } from "./surfaces/web/static.ts";

export interface Features {
  google: boolean;
  diia: boolean;
  /** Sign-in with BankID NBU is configured. */
  bankId: boolean;
  /** The login page shows the university's own bank picker. */
  bankIdBankPicker: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Kysely<Database>;
    features: Features;
    clock: () => Date;
    passwordHasher: PasswordHasher;
    mailer: Mailer;
    sessionCache: SessionCache;
    /** What each protocol does when sessions end; every sign-out runs them (model/sessions/sign-out.ts). */
    signOut: SignOutParticipants;
    /** The protocols this app speaks (protocols/registry.ts, or those BuildAppOptions.protocols named). */
    protocols: readonly ProtocolRecord[];
    /** Applications read by id (apps/cache.ts). */
    applicationCache: ApplicationCache;
    /** People as the OpenID Connect provider asks for them with a token (oidc/account-cache.ts). */
    accountCache: AccountCache;
    accessTokenCache: AccessTokenCache;
  }
}

export type { ProtocolName };

export interface BuildAppOptions {
  config: Config;
  /** An open, migrated database; the app closes it when it closes. */
  database: DatabaseHandle;
  /** false silences logs (tests); default follows the configuration. */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read what the service logs). */
  logStream?: { write(line: string): void };
  /** The time every expiry and throttle is judged by; tests move it instead of sleeping. */
  clock?: () => Date;
  /**
   * Only these protocols' routes and runtimes (the OpenID Connect provider, the SAML runtime, …), by their records'
   * names: a test that drives one protocol, or none, builds that much of the app. The service serves every one.
   */
  protocols?: readonly ProtocolName[];
}

/**
 * Fastify counts a bare number as "trust nothing"; a hop count means the socket's
 * peer and the hops before it are proxies (proxy-addr's function form).
 */
function fastifyTrustProxy(trust: Config["trustProxy"]): FastifyServerOptions["trustProxy"] {
  if (typeof trust !== "number") return trust;
  return (_address, hop) => hop < trust;
}

/** The registry's records, in its order, of the names asked for (every one when none are named). */
function chosenProtocols(names: readonly ProtocolName[] | undefined): readonly ProtocolRecord[] {
  if (!names) return everyProtocol;
  const unknown = names.filter((name) => !everyProtocol.some((protocol) => protocol.name === name));
  if (unknown.length > 0) throw new Error(`buildApp: no protocol named ${unknown.join(", ")}`);
  return everyProtocol.filter((protocol) => names.includes(protocol.name));
}

export async function buildApp({
  config,
  database,
  logger = true,
  logStream,
  clock = () => new Date(),
  protocols: wanted,
}: BuildAppOptions): Promise<FastifyInstance> {
  const chosen = chosenProtocols(wanted);
  const serverOptions: FastifyHttpOptions<Server> = {
    logger: logger ? loggerOptions(config, logStream) : false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // A client slow to send its headers or its body is cut off (408) instead of holding a connection.
    http: {
      headersTimeout: config.httpTimeouts.headersSeconds * 1000,
      requestTimeout: config.httpTimeouts.requestSeconds * 1000,
      // How often Node looks for connections past those timeouts (its default is every 30 s).
      connectionsCheckingInterval: Math.min(1000, config.httpTimeouts.headersSeconds * 1000),
    },
    requestTimeout: config.httpTimeouts.requestSeconds * 1000,
    keepAliveTimeout: config.httpTimeouts.keepAliveSeconds * 1000,
    // A connection with nothing sent either way for this long is closed.
    connectionTimeout: (config.httpTimeouts.requestSeconds + config.httpTimeouts.keepAliveSeconds) * 1000,
    // Idle keep-alive sockets close at shutdown; in-flight requests finish first.
    forceCloseConnections: "idle",
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
  };
  const app = Fastify(serverOptions).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("features", {
    google: config.google !== undefined,
    diia: false,
    bankId: false,
    bankIdBankPicker: false,
  } satisfies Features);
  app.decorate("clock", clock);
  app.decorate("passwordHasher", createPasswordHasher(config.argon2, config.passwordChecks));
  app.decorate("mailer", createMailer(config.mail));
  app.decorate("sessionCache", new SessionCache(config.sessionCacheEntries));
  app.decorate("accountCache", new AccountCache(config.sessionCacheEntries));
  app.decorate("accessTokenCache", new AccessTokenCache(config.sessionCacheEntries));
  // Far more than a campus registers; 0 when the caches are off.
  app.decorate("applicationCache", new ApplicationCache(Math.min(config.sessionCacheEntries, 1000)));
  // Every ending of sessions (model/sessions/end-sessions.ts) runs the participants each protocol registers (below).
  const signOutFailed = (participant: string, error: unknown) =>
    app.log.warn({ err: error, participant }, "sign-out: an application could not be told");
  app.decorate("signOut", new SignOutParticipants(signOutFailed));
  app.decorate("protocols", chosen);
  let cacheFeed: CacheFeed | undefined;
  // Opened once the app is ready, so an app that fails to build leaves no listening connection behind.
  app.addHook("onReady", async () => {
    const caches = [app.sessionCache, app.accountCache, app.applicationCache, app.accessTokenCache];
    if (config.sessionCacheEntries > 0) cacheFeed = connectCacheFeed(database, caches);
    await cacheFeed?.ready;
  });
  app.addHook("onClose", async () => {
    await stopImportJobsForShutdown(database.db);
    app.mailer.close();
    await cacheFeed?.close();
    await database.close();
  });

  // With tracing on, each request's span is named by its route; otherwise no hook at all.
  const nameRequestSpan = requestSpanNaming();
  if (nameRequestSpan) {
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.url) nameRequestSpan(request.method, request.routeOptions.url);
    });
  }
  registerErrorHandling(app);
  registerJsonParser(app);
  // The ring: the newest key signs, older ones still verify (@fastify/cookie's own rotation).
  await app.register(cookie, { secret: [...config.sessionSecrets] });
  await registerSecurity(app, config);
  await registerOpenApi(app, config);
  if (config.apiDocsUi) await registerApiDocs(app);
  registerSessions(app);
  registerMetrics(app, {
    certificates: async () => (await watchedCertificates({ db: app.db, config: app.config })).certificates,
    pendingDiiaRequests: () => countPendingDiiaRequests(app.db, app.clock()),
  });
  registerQuietCollection(app);
  scheduleCleanup(app);

  await app.register(healthRoutes);
  await app.register(settingsRoutes);
  await registerSigninScript(app);
  await app.register(passwordRoutes);
  await app.register(grantExchangeRoutes);
  await app.register(signOutRoutes);
  await app.register(googleRoutes);
  await app.register(userRoutes);
  await app.register(accountSessionRoutes);
  await app.register(accountPersonalDataRoutes);
  await app.register(accountApplicationRoutes);
  await app.register(accountPasswordRoutes);
  await app.register(accountWifiRoutes);
  await app.register(accountLdapRoutes);
  await app.register(accountGuestRoutes);
  await app.register(guestInvitationRoutes);
  await app.register(secondFactorRoutes);
  await app.register(passkeyRoutes);
  await app.register(recoveryRoutes);
  await app.register(adminPeopleRoutes);
  await app.register(adminPersonRecoveryRoutes);
  await app.register(adminPersonErasureRoutes);
  await app.register(adminApplicationRoutes);
  await app.register(adminReviewRoutes);
  await app.register(developerRoutes);
  await app.register(developerPeopleRoutes);
  await app.register(developerChangeRoutes);
  await app.register(developerMembershipRoutes);
  await app.register(developerConsoleRoutes);
  await app.register(adminApplicationDetailRoutes);
  await app.register(adminAccessRuleRoutes);
  await app.register(adminCasServiceRoutes);
  await app.register(adminImportRoutes);
  await app.register(adminAuditRoutes);
  await app.register(adminServiceRoutes);
  await app.register(adminWifiRoutes);
  await app.register(adminLdapRoutes);
  await app.register(adminGuestRoutes);
  await app.register(adminUnitRoleRoutes);
  await app.register(continuingRoutes);
  await registerDiia(app);
  await registerBankId(app);
  for (const protocol of app.protocols) {
    await protocol.register(app);
    if (protocol.signOut) app.signOut.register(protocol.signOut(app));
  }
  if (config.env === "development") await app.register(missingTranslationRoutes);
  await registerWebApp(app, resolveWebDist(config.webDistDir));

  return app;
}
