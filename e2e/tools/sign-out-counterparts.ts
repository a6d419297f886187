import { join } from "node:path";
import {
  documentedBlock,
  kpiIdCommands,
  type RunningApache,
  type RunningSites,
  replaceEvery,
  startProtectedSites,
} from "@kpi-id/server/testing";
import { loggedRequests } from "./apache-access-log.ts";
import { startCasClients } from "./cas/clients.ts";
import { type CasHarness, prepareCasHarness } from "./cas/harness.ts";
import { type ApacheSite, documentedRegistration, prepareApacheSite, startApache } from "./mod-auth-openidc.ts";
import type { OwnKpiId } from "./own-kpi-id.ts";
import { prepareSamlHarness, type SamlHarness } from "./saml/federation.ts";
import { mellonRoot, startMellon } from "./saml/mellon.ts";

/**
 * One application of each protocol with a real counterpart, for sign-out-everywhere.spec.ts: Apache's
 * mod_auth_openidc (OpenID Connect), Apache's mod_auth_mellon (SAML), Apache's mod_auth_cas (CAS) and nginx
 * auth_request (forward-auth), each from the suite's own tool (the same configurations the protocols' specs run),
 * registered with the operator CLI on a KPI ID of the spec's own. Ports from the worker's range: KPI ID +6,
 * mod_auth_openidc +7, nginx +8, mellon +11, mod_auth_cas +17 (phpCAS's +16 and +18 idle).
 */
export interface CounterpartSetup {
  openidcSite: ApacheSite;
  saml: SamlHarness;
  cas: CasHarness;
  wikiOrigin: string;
  nginxPort: number;
}

const wikiHost = "wiki.localhost";

export function prepareCounterparts(portBase: number): CounterpartSetup {
  const nginxPort = portBase + 8;
  return {
    openidcSite: prepareApacheSite(portBase + 7),
    // Folders of their own beside the worker's (the SAML and CAS specs' Apache folders stay theirs).
    saml: prepareSamlHarness(`${process.env.E2E_SAML_DIR ?? ""}-sign-out`, "", portBase),
    cas: prepareCasHarness(`${process.env.E2E_CAS_DIR ?? ""}-sign-out`, portBase),
    wikiOrigin: `https://${wikiHost}:${nginxPort}`,
    nginxPort,
  };
}

export interface Registered {
  /** The applications' names, for `user grant`. */
  applications: string[];
  openidcClient: { id: string; secret: string };
  wikiId: string;
}

async function created(kpiId: OwnKpiId, command: string[]): Promise<{ id: string; name: string; secret: string }> {
  return JSON.parse(await kpiId.cli([...command, "--json"]));
}

/** Each application registered as its doc says (mod_auth_openidc's and nginx's own command blocks). */
export async function registerCounterparts(kpiId: OwnKpiId, setup: CounterpartSetup): Promise<Registered> {
  const [openidcCreate, ...openidcRest] = documentedRegistration(setup.openidcSite);
  const library = await created(kpiId, openidcCreate ?? []);
  for (const command of openidcRest) await kpiId.cli(command);

  const nginxCommands = kpiIdCommands(
    replaceEvery(
      documentedBlock("nginx-auth-request.md", "## Registering the site", "sh"),
      "https://wiki.kpi.ua",
      setup.wikiOrigin,
    ),
  );
  const [nginxCreate, ...nginxRest] = nginxCommands;
  const wiki = await created(kpiId, nginxCreate ?? []);
  for (const command of nginxRest) await kpiId.cli(command);

  const casSite = `${setup.cas.apacheUrl}/`;
  const cas = await created(kpiId, [
    ...["app", "create", "--name", "cas-site", "--title", "Сайт CAS", "--description", "mod_auth_cas"],
    ...["--callback-url", `${casSite}unused`],
  ]);
  await kpiId.cli(["app", "cas", "--app", cas.name, "--service", casSite, "--prefix", "--single-logout"]);

  await kpiId.cli(["saml", "sp", "add", "--metadata", setup.saml.mellon.metadataFile, "--first-party"]);
  return {
    applications: [library.name, wiki.name, cas.name],
    openidcClient: { id: library.id, secret: library.secret },
    wikiId: wiki.id,
  };
}

export interface Counterparts {
  mellonUrl: string;
  casUrl: string;
  wikiOrigin: string;
  /** The logout notices each has been sent so far, counted in its access log. */
  notices: { oidc(): number; saml(): number; cas(): number };
}

const count = (dir: string, told: RegExp) => loggedRequests(dir).filter((line) => told.test(line)).length;

/** Whatever startCounterparts started, kept here so that a start cut short (a timeout) is stopped too. */
const started: { stop(): unknown }[] = [];
const keep = <T extends { stop(): unknown }>(running: T) => {
  started.push(running);
  return running;
};

/** Stops every counterpart started, those of a start that did not finish too. */
export async function stopCounterparts(): Promise<void> {
  await Promise.all(started.splice(0).map((running) => running.stop()));
}

/** The four counterparts, started at once; stopCounterparts stops them. */
export async function startCounterparts(
  kpiIdOrigin: string,
  setup: CounterpartSetup,
  registered: Registered,
): Promise<Counterparts> {
  try {
    await Promise.all([
      startApache(setup.openidcSite, kpiIdOrigin, registered.openidcClient).then(keep<RunningApache>),
      startMellon(setup.saml, kpiIdOrigin).then((apache) => keep({ stop: () => apache.kill("SIGTERM") })),
      startCasClients(setup.cas, kpiIdOrigin).then(keep),
      startProtectedSites(kpiIdOrigin, setup.nginxPort, [{ host: wikiHost, applicationId: registered.wikiId }]).then(
        keep<RunningSites>,
      ),
    ]);
    return {
      mellonUrl: setup.saml.mellon.url,
      casUrl: setup.cas.apacheUrl,
      wikiOrigin: setup.wikiOrigin,
      notices: {
        // KPI ID's back-channel logout token, posted to the module's redirect URI.
        oidc: () => count(setup.openidcSite.dir, /^POST \/protected\/redirect_uri\?logout=backchannel /),
        // A LogoutRequest: through the browser (HTTP-Redirect) or straight from KPI ID (SOAP, a POST).
        saml: () => count(mellonRoot(setup.saml), /^(GET \/mellon\/logout\?SAMLRequest=|POST \/mellon\/logout )/),
        // CAS single logout: a LogoutRequest posted to the service address the ticket was validated for.
        cas: () => count(join(setup.cas.dir, "apache"), /^POST \/secure\//),
      },
    };
  } catch (error) {
    await stopCounterparts();
    throw error;
  }
}
