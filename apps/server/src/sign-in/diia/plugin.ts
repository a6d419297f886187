import type { FastifyInstance } from "fastify";
import { Gauge } from "prom-client";
import { DiiaClient } from "./client.ts";
import type { CrlStore } from "./crypto/crl-store.ts";
import type { OcspStore } from "./crypto/ocsp-store.ts";
import { type DiiaRuntime, diiaRoutes } from "./routes.ts";

/**
 * The Diia runtime when everything sign-in needs is configured; a bad trust anchor stops start-up.
 * Its DSTU crypto (jkurwa, gost89) is loaded here only when Diia is configured (issue 41).
 */
export async function createDiiaRuntime(app: FastifyInstance): Promise<DiiaRuntime | undefined> {
  const diia = app.config.diia;
  if (!diia?.branchId || !diia.offerId || !diia.trustAnchors) return undefined;
  const [{ crlStoreFor, loadCertificates }, { JkurwaSignatureVerifier }, { ThreadedSignatureVerifier }, ocspModules] =
    await Promise.all([
      import("./crypto/configured-cas.ts"),
      import("./crypto/jkurwa-verifier.ts"),
      import("./crypto/threaded-verifier.ts"),
      Promise.all([
        import("./crypto/ocsp-store.ts"),
        import("./crypto/revocation.ts"),
        import("../../model/diia/ocsp-answers.ts"),
        import("../../model/diia/revocation-lists.ts"),
      ]),
    ]);
  const [{ OcspStore }, { revocationChecker }, { databaseOcspPersistence }, { databaseCrlPersistence }] = ocspModules;
  const anchors = loadCertificates("DIIA_TRUST_ANCHORS", diia.trustAnchors);
  const intermediates = loadCertificates("DIIA_INTERMEDIATE_CAS", diia.intermediateCas);
  const signers = loadCertificates("DIIA_SIGNER_CERTIFICATES", diia.signerCertificates);
  const authorities = [...anchors, ...intermediates];
  const crls = crlStoreFor(diia, authorities, app.log, databaseCrlPersistence(app.db));
  const ocsp =
    diia.ocsp.length === 0
      ? undefined
      : new OcspStore({
          responders: diia.ocsp,
          authorities,
          graceSeconds: diia.crlGraceSeconds,
          log: app.log,
          signers,
          persistence: databaseOcspPersistence(app.db),
        });
  return {
    client: new DiiaClient({ config: diia, clock: app.clock }),
    // The DSTU verifications in a worker thread, the revocation stores on the event loop (threaded-verifier.ts).
    verifier: new ThreadedSignatureVerifier(
      new JkurwaSignatureVerifier(anchors, intermediates, revocationChecker(crls, ocsp), signers),
      { anchors, intermediates, signers },
    ),
    crls,
    ocsp,
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
  // The CRLs and OCSP answers load at start (or come from the copies another instance stored), then
  // refresh in the background: a CA or responder that is slow or away never delays a sign-in's callback.
  for (const store of [runtime?.crls, runtime?.ocsp]) {
    if (!store) continue;
    let stop = () => {};
    app.addHook("onReady", async () => {
      await store.refresh(app.clock());
      stop = store.startBackgroundRefresh(app.clock);
    });
    app.addHook("onClose", async () => stop());
  }
  if (runtime?.verifier.queue) app.metrics.watchCheckLine("diia", runtime.verifier.queue);
  if (runtime?.verifier.close) {
    const { verifier } = runtime;
    app.addHook("onClose", async () => verifier.close?.());
  }
  watchStaleRevocation(app, runtime?.crls, runtime?.ocsp);
  await app.register(diiaRoutes, { runtime });
}

/**
 * `kpi_id_diia_crl_stale{source}`: 1 while a source's list is missing or past its nextUpdate;
 * `kpi_id_diia_ocsp_stale`: how many watched signers' certificates have no OCSP answer or one past nextUpdate.
 */
function watchStaleRevocation(app: FastifyInstance, crls: CrlStore | undefined, ocsp: OcspStore | undefined): void {
  if (crls) {
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
  if (ocsp) {
    new Gauge({
      name: "kpi_id_diia_ocsp_stale",
      help: "Watched Diia signers' certificates with no OCSP answer or one past nextUpdate (the CRLs decide for them; after the grace, fail closed without a current CRL)",
      registers: [app.metrics.registry],
      collect() {
        this.set(ocsp.staleCertificates(app.clock()).length);
      },
    });
  }
}
