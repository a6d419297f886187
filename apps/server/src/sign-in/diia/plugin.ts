import type { FastifyInstance } from "fastify";
import { DiiaClient } from "./client.ts";
import { type DiiaRuntime, diiaRoutes } from "./routes.ts";

/**
 * The Diia runtime when everything sign-in needs is configured; a bad trust anchor stops start-up.
 * Its DSTU crypto (jkurwa, gost89) is loaded here only when Diia is configured (issue 41).
 */
export async function createDiiaRuntime(app: FastifyInstance): Promise<DiiaRuntime | undefined> {
  const diia = app.config.diia;
  if (!diia?.branchId || !diia.offerId || !diia.trustAnchors) return undefined;
  const [{ crlStoreFor, loadCertificates }, { JkurwaSignatureVerifier }] = await Promise.all([
    import("./crypto/configured-cas.ts"),
    import("./crypto/jkurwa-verifier.ts"),
  ]);
  const anchors = loadCertificates("DIIA_TRUST_ANCHORS", diia.trustAnchors);
  const intermediates = loadCertificates("DIIA_INTERMEDIATE_CAS", diia.intermediateCas);
  const crls = crlStoreFor(diia, [...anchors, ...intermediates], app.log);
  return {
    client: new DiiaClient({ config: diia, clock: app.clock }),
    verifier: new JkurwaSignatureVerifier(anchors, intermediates, crls),
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
  // The CRLs load at start; a source that fails is logged and asked again at the next sign-in.
  if (crls) app.addHook("onReady", () => crls.refresh(app.clock()));
  await app.register(diiaRoutes, { runtime });
}
