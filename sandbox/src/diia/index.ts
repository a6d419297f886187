import Fastify from "fastify";
import type { RunningStandIn, SandboxOptions } from "../stand-in.ts";
import { registerOcspResponder } from "./ocsp-responder.ts";
import { registerPartnerApi } from "./partner-api.ts";
import { type PhonePerson, standInPki } from "./people.ts";
import { registerPhone } from "./phone.ts";
import { issueCrl, issueOcspSigner } from "./pki.ts";
import { StandInState } from "./state.ts";

export interface DiiaStandInOptions {
  /** The product's public URL: its /api/diia/callback receives the signed sign-ins. */
  productUrl: string;
  /** 0 picks a free port. */
  port: number;
  /** Where its keys and certificates are kept for the next start (kept-pki.ts); undefined: made afresh. */
  dataDir?: string;
}

export interface RunningDiiaStandIn extends RunningStandIn {
  state: StandInState;
  people: PhonePerson[];
  trustAnchorPem: string;
}

/** How long a CRL the stand-in's CAs publish stays current. */
const crlLifetimeMs = 60 * 60 * 1000;

/** The branch and offer `kpi-id diia setup` would create, there from the start. */
function seedAcquirer(state: StandInState) {
  const branch = state.addBranch({
    name: "KPI ID",
    customFullName: "КПІ ім. Ігоря Сікорського — KPI ID",
    customFullAddress: "м. Київ, просп. Берестейський, 37",
    region: "м. Київ",
    district: "Солом'янський р-н",
    location: "м. Київ",
    street: "просп. Берестейський",
    house: "37",
    scopes: { diiaId: ["auth"] },
  });
  return { branch, offer: state.addOffer(branch._id, "Вхід до KPI ID") };
}

/**
 * Starts the Diia stand-in: Diia's partner API and the phone page on loopback,
 * with a test CA and demo people's DSTU keys (made by the process's first stand-in). The product needs only
 * the environment this returns; its code path is the production one.
 */
export async function startDiiaStandIn(options: DiiaStandInOptions): Promise<RunningDiiaStandIn> {
  const { trustedCa, intermediateCa, people, revoked, revokedByOcspOnly, absentSigners } = standInPki(options.dataDir);
  const state = new StandInState();
  const { branch, offer } = seedAcquirer(state);
  let url = "";
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  registerPartnerApi(app, { state, publicUrl: () => url });
  // Each CA's CRL, issued afresh on each download and current for an hour, as a CA publishes one.
  const crls = [
    { path: "/pki/ca.crl", ca: trustedCa, revoked },
    { path: "/pki/intermediate.crl", ca: intermediateCa, revoked: [] },
  ];
  for (const crl of crls) {
    app.get(crl.path, async (_request, reply) => {
      const now = Date.now();
      const revokedCertificates = crl.revoked.map((party) => party.certificate);
      const body = issueCrl(crl.ca, revokedCertificates, { thisUpdate: now, nextUpdate: now + crlLifetimeMs });
      return reply.type("application/pkix-crl").send(body);
    });
  }
  // One OCSP responder for both CAs: the trusted CA signs its own answers, the intermediate delegates to an
  // OCSP signer. It knows the revocations since the last CRL too.
  const serials = (parties: typeof revoked) => new Set(parties.map((party) => party.certificate.serial.toString(16)));
  const now = Date.now();
  registerOcspResponder(app, [
    { ca: trustedCa, revoked: () => serials([...revoked, ...revokedByOcspOnly]) },
    {
      ca: intermediateCa,
      delegated: issueOcspSigner(intermediateCa, { from: now - 3600 * 1000, to: now + 365 * 24 * 3600 * 1000 }),
      revoked: () => new Set(),
    },
  ]);
  registerPhone(app, { state, people, callbackUrl: `${options.productUrl.replace(/\/+$/, "")}/api/diia/callback` });
  await app.listen({ host: "127.0.0.1", port: options.port });
  const address = app.server.address();
  url = `http://localhost:${typeof address === "object" && address ? address.port : options.port}`;
  const trustAnchorPem = trustedCa.certificate.as_pem();
  return {
    name: "Diia",
    url,
    state,
    people,
    trustAnchorPem,
    env: {
      DIIA_BASE_URL: url,
      DIIA_ACQUIRER_TOKEN: state.acquirerToken,
      DIIA_BRANCH_ID: branch._id,
      DIIA_OFFER_ID: offer._id,
      // One line, so it survives any environment file; the product reads the "\n" escapes.
      DIIA_TRUST_ANCHORS: trustAnchorPem.replace(/\n/g, "\\n"),
      DIIA_INTERMEDIATE_CAS: intermediateCa.certificate.as_pem().replace(/\n/g, "\\n"),
      DIIA_CRLS: crls.map((crl) => `${url}${crl.path}`).join(","),
      DIIA_OCSP: `${url}/pki/ocsp`,
      // The "signer-absent" persona's signature omits its certificate; the product looks it up here. The
      // "revoked-ocsp" persona's is here too, so the product has its OCSP answer before the first callback.
      DIIA_SIGNER_CERTIFICATES: [...absentSigners, ...revokedByOcspOnly]
        .map((party) => party.certificate.as_pem())
        .join("\n")
        .replace(/\n/g, "\\n"),
    },
    close: () => app.close(),
  };
}

/** The sandbox starter: a real Diia configured in the environment wins, and then nothing starts. */
export async function startDiiaSandbox(options: SandboxOptions): Promise<RunningStandIn | undefined> {
  if (options.env.DIIA_BASE_URL && options.env.DIIA_ACQUIRER_TOKEN) return undefined;
  return startDiiaStandIn({ productUrl: options.productUrl, port: options.diiaPort ?? 3002, dataDir: options.dataDir });
}
