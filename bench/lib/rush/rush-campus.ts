import type { SoftAuthenticator } from "@kpi-id/server/testing";
import type { Join } from "./radius-access.ts";
import type { StandInsReady } from "./stand-ins.ts";

// What the rush's journeys need of the seeded campus (seed.ts makes it, journeys.ts and its helpers use it).

export interface Credentials {
  id: string;
  secret: string;
}

/** Everything the rush needs of the seeded campus (seed.ts). */
export interface RushCampus {
  origin: string;
  password: string;
  /** The next person signing in with a password alone. */
  nextPerson(): string;
  /** The next person with an authenticator app, and their code now. */
  nextWithSecondFactor(): { username: string; code(): Promise<string> };
  /** The next person with a passkey: their authenticator. */
  nextWithPasskey?: () => SoftAuthenticator;
  /** The next device joining eduroam: its identity, Wi-Fi password and MAC address. */
  nextDevice?: () => Join;
  /** Google, Diia and BankID NBU's stand-ins, when the run started them (else those people use a password). */
  standIns?: StandInsReady;
  /** A session cookie of someone signed in on an earlier day (`name=value`). */
  nextEarlierSession(): string;
  ticketApplication: Credentials;
  oidcClient: Credentials & { redirectUri: string };
  casService: string;
  /** A SAML service provider (a Shibboleth SP's entity id and assertion consumer). */
  samlServiceProvider: { entityId: string; acsUrl: string };
  /** A site behind nginx's auth_request: its application id and origin. */
  protectedSite: { id: string; origin: string };
  helpdeskCookie: string;
  scimToken: string;
  surnames: readonly string[];
  /** Told of every session a sign-in made (`name=value`), when the run checks them afterwards. */
  onSignedIn?: (cookie: string) => void;
}
