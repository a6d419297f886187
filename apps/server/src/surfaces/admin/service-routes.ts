import { readFileSync } from "node:fs";
import { errorBodySchema, keyRotationSchema, serviceStatusSchema, signingKeysSchema } from "@kpi-id/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../platform/config/index.ts";
import type { Db } from "../../platform/db/schema.ts";
import { databaseVersion } from "../../platform/db/version.ts";
import { readServiceFigures } from "../../platform/metrics/figures.ts";
import {
  keyActivationDelaySeconds,
  listSigningKeys,
  rotateOidcSigningKey,
  signingKeyRetentionSeconds,
} from "../../protocols/oidc/signing-keys.ts";
import { certificateWarningDays, expiryState, watchedCertificates } from "../doctor/certificates.ts";
import { describeDiiaRevocationLists } from "../doctor/revocation.ts";
import { checkReadiness } from "../health/readiness.ts";
import { auditByOperator, guardConsoleRoutes } from "./plugin.ts";

const refusals = { 401: errorBodySchema, 403: errorBodySchema };
const tags = ["admin"];

/** The server's own package version, read once. */
const serverVersion = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

const dayMs = 86_400_000;

/** The certificates `doctor` watches, with the whole days each has left at `now` (negative once ended). */
async function describeCertificates(db: Db, config: Config, now: Date) {
  const { certificates, unreadable } = await watchedCertificates({ db, config });
  return {
    warningDays: certificateWarningDays,
    certificates: certificates
      .map((certificate) => ({
        source: certificate.source,
        subject: certificate.subject,
        notAfter: certificate.notAfter.toISOString(),
        daysLeft: Math.floor((certificate.notAfter.getTime() - now.getTime()) / dayMs),
        state: expiryState(certificate.notAfter, now),
      }))
      .sort((a, b) => a.notAfter.localeCompare(b.notAfter)),
    unreadable,
  };
}

/** The console's signing keys (list, rotate the OpenID Connect key) and service screens: admin's alone. */
export const adminServiceRoutes: FastifyPluginAsyncZod = async (app) => {
  guardConsoleRoutes(app);

  app.get(
    "/api/admin/keys",
    {
      config: { permission: "keys.manage", subject: "university" },
      schema: {
        tags,
        summary: "List the signing keys",
        description:
          "The OpenID Connect signing keys as `keys list` shows them (which are published, which one signs) " +
          "and the SAML keys in the metadata with their certificates' subject, fingerprint and validity.",
        response: { 200: signingKeysSchema, ...refusals },
      },
    },
    async () => {
      const now = app.clock();
      const [oidc, saml] = await Promise.all([
        listSigningKeys(app.db, app.config.sessionSecrets, now),
        // key-status.ts reads certificates with @peculiar/x509: loaded here, not at start-up (issue 41).
        import("../../protocols/saml/key-status.ts").then(({ describeSamlKeys }) => describeSamlKeys(app.db, now)),
      ]);
      return {
        oidc: {
          keys: oidc.map((key) => ({
            ...key,
            createdAt: key.createdAt.toISOString(),
            activatesAt: key.activatesAt?.toISOString() ?? null,
            retiredAt: key.retiredAt?.toISOString() ?? null,
            publishedUntil: key.publishedUntil?.toISOString() ?? null,
          })),
          activationDelaySeconds: keyActivationDelaySeconds,
          retentionSeconds: signingKeyRetentionSeconds,
        },
        saml: {
          keys: saml.map((key) => ({
            ...key,
            notBefore: key.notBefore.toISOString(),
            notAfter: key.notAfter.toISOString(),
            activatesAt: key.activatesAt.toISOString(),
          })),
        },
      };
    },
  );

  app.post(
    "/api/admin/keys/rotate",
    {
      config: { permission: "keys.manage", subject: "university" },
      schema: {
        tags,
        summary: "Rotate the OpenID Connect signing key",
        description:
          "As `keys rotate`: a new key is published at once and signs after the activation delay; the old one " +
          "stays published until the ID tokens it signed expire. Audited as `signing_keys_rotated`.",
        body: z.object({}).optional(),
        response: { 200: keyRotationSchema, ...refusals },
      },
    },
    async (request) => {
      const rotation = await rotateOidcSigningKey(app.db, app.config.sessionSecret, app.clock());
      await auditByOperator(request, {
        type: "signing_keys_rotated",
        result: "success",
        details: { kid: rotation.kid, retired: rotation.retired },
      });
      return { kid: rotation.kid, retired: rotation.retired, signsFrom: rotation.signsFrom.toISOString() };
    },
  );

  app.get(
    "/api/admin/service",
    {
      config: { permission: "service.view", subject: "university" },
      schema: {
        tags,
        summary: "The service's state",
        description:
          "Version, database kind and server version, what /ready checks, uptime, and key figures read from " +
          "the registry `/metrics` serves (since this process started), and the certificates `doctor` watches " +
          "(SAML signing and metadata signing, the federations' metadata signers, Diia's and BankID's), soonest " +
          "ending first, each with its notAfter, whole days left and state: `expiring` within `warningDays` (30), " +
          "`expired` once past; a source that cannot be read is listed in `unreadable` with why. `revocationLists`: each " +
          "DIIA_CRLS source, `stale` past its nextUpdate (still counted for DIIA_CRL_GRACE_SECONDS) or `refusing` after, " +
          "and with DIIA_OCSP one entry for the OCSP answers (`refusing` only when no CRLs are configured).",
        response: { 200: serviceStatusSchema, ...refusals },
      },
    },
    async () => {
      const [health, version, figures, certificates, revocationLists] = await Promise.all([
        checkReadiness(app),
        databaseVersion(app.db),
        readServiceFigures(app.metrics.registry),
        describeCertificates(app.db, app.config, app.clock()),
        describeDiiaRevocationLists(app.db, app.config, app.clock()),
      ]);
      const uptimeSeconds = Math.floor(process.uptime());
      return {
        version: serverVersion,
        database: { kind: app.database.kind, serverVersion: version },
        health,
        startedAt: new Date(Date.now() - uptimeSeconds * 1000).toISOString(),
        uptimeSeconds,
        figures,
        certificates,
        revocationLists,
      };
    },
  );
};
