import type { FastifyInstance } from "fastify";
import { Gauge } from "prom-client";
import { DiiaClient } from "./client.ts";
import type { CrlStore } from "./crypto/crl-store.ts";
import { type DiiaRuntime, diiaRoutes } from "./routes.ts";

/**
 * The Diia runtime when everything sign-in needs is configured; a bad trust anchor stops start-up.
 * Its DSTU crypto (jkurwa, gost89) is loaded here only when Diia is configured (issue 41).
 */
export async function createDiiaRuntime(app: FastifyInstance): Promise<DiiaRuntime | undefined> {
  const diia = app.config.diia;
  if (!diia?.branchId || !diia.offerId || !diia.trustAnchors) return undefined;
  const [{ crlStoreFor, loadCertificates }, { JkurwaSignatureVerifier }, { databaseCrlPersistence }] =
    await Promise.all([
      import("./crypto/configured-cas.ts"),
      import("./crypto/jkurwa-verifier.ts"),
      import("../../model/diia/revocation-lists.ts"),
    ]);
  const anchors = loadCertificates("DIIA_TRUST_ANCHORS", diia.trustAnchors);
  const intermediates = loadCertificates("DIIA_INTERMEDIATE_CAS", diia.intermediateCas);
  const signers = loadCertificates("DIIA_SIGNER_CERTIFICATES", diia.signerCertificates);
  const crls = crlStoreFor(diia, [...anchors, ...intermediates], app.log, databaseCrlPersistence(app.db));
  return {
    client: new DiiaClient({ config: diia, clock: app.clock }),
    verifier: new JkurwaSignatureVerifier(anchors, intermediates, crls, signers),
    crls,
    settings: {
      branchId: diia.branchId,
      offerId: diia.offerId,
      requestTtlSeconds: diia.requestTtlSeconds,
    },
  };
}

/** Sign-in with Diia: its routes always exist and answer diia.not_configured until it is configured. */
export async function registerDiia(app: FastifyInstance, given?: DiiaRuntime): Promise<void> {
  const runtime = given ?? (await createDiiaRuntime(app));
  app.features.diia = runtime !== undefined;
  const crls = runtime?.crls;
  // The CRLs load at start (or come from the copy another instance stored), then refresh in the
  // background: a CA that is slow or away never delays a sign-in's callback.
  if (crls) {
    let stop = () => {};
    app.addHook("onReady", async () => {
      await crls.refresh(app.clock());
      stop = crls.startBackgroundRefresh(app.clock);
    });
    app.addHook("onClose", async () => stop());
    watchStaleCrls(app, crls);
  }
  await app.register(diiaRoutes, { runtime });
}

/** `kpi_id_diia_crl_stale{source}`: 1 while a source's list is missing or past its nextUpdate. */
function watchStaleCrls(app: FastifyInstance, crls: CrlStore): void {
  const sources = app.config.diia?.crls ?? [];
  new Gauge({
    name: "kpi_id_diia_crl_stale",
    help: "1 while a DIIA_CRLS source has no list or its last good list is past nextUpdate (fail closed after the grace)",
    labelNames: ["source"],
    registers: [app.metrics.registry],
    collect() {
      const stale = new Set(crls.staleSources(app.clock()));
      for (const source of sources) this.set({ source }, stale.has(source) ? 1 : 0);
    },
  });
}
