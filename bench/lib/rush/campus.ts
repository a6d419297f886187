// The campus a rush replays and the rates of its morning peak (issue 80). Every figure is an environment
// variable, so an operator can replay their own campus: `RUSH_STUDENTS=40000 npm run bench -- rush`.

export interface Campus {
  students: number;
  staff: number;
  devices: number;
  /** The morning window, in minutes of campus time. */
  windowMinutes: number;
  /** Campus time ÷ wall time: each step replays windowMinutes / compression of wall time at its rate. */
  compression: number;
  /** The steps, as multiples of the campus peak. */
  multiples: number[];
  /** The fraction of the devices' joins driven through FreeRADIUS (0: eduroam left out). */
  eduroamSample: number;
}

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

export function campusFromEnvironment(): Campus {
  const multiples = (process.env.RUSH_MULTIPLES ?? "0.25,0.5,1,1.5,2,3,4,6,8").split(",").map(Number);
  if (multiples.some((each) => !Number.isFinite(each) || each <= 0)) throw new Error("RUSH_MULTIPLES: numbers > 0");
  const students = number("RUSH_STUDENTS", 25_000);
  const staff = number("RUSH_STAFF", 5_000);
  return {
    students,
    staff,
    // 4 devices for every 3 people by default (40,000 for the default campus), so a smaller campus keeps its mix.
    devices: number("RUSH_DEVICES", Math.round(((students + staff) * 4) / 3)),
    windowMinutes: number("RUSH_WINDOW_MINUTES", 30),
    compression: number("RUSH_COMPRESSION", 60),
    multiples: multiples.sort((a, b) => a - b),
    eduroamSample: Math.min(1, Math.max(0, Number(process.env.RUSH_EDUROAM_SAMPLE ?? 1) || 0)),
  };
}

/** Shares from `RUSH_<NAME>` as `key=share,…` (keys of `defaults`), normalised to sum to 1. */
function sharesFromEnvironment<Key extends string>(name: string, defaults: Record<Key, number>): Record<Key, number> {
  const given = process.env[name];
  if (!given) return defaults;
  const shares = Object.fromEntries(Object.keys(defaults).map((key) => [key, 0])) as Record<Key, number>;
  for (const pair of given.split(",")) {
    const [key = "", value = ""] = pair.split("=");
    if (!(key in defaults) || !(Number(value) >= 0))
      throw new Error(`${name}: ${Object.keys(defaults).join("|")}=share,…`);
    shares[key as Key] = Number(value);
  }
  const total = Object.values<number>(shares).reduce((sum, each) => sum + each, 0);
  if (!(total > 0)) throw new Error(`${name}: the shares must add up to more than 0`);
  for (const key of Object.keys(shares) as Key[]) shares[key] /= total;
  return shares;
}

/**
 * How fresh sign-ins are made, by share (RUSH_SIGN_IN_METHODS=password=0.55,passkey=0.15,…). Estimates, not a
 * campus's statistics (none is published): the password stays the default everyone has; passkeys are what people
 * who added one use (the account page offers them since 0.3); Google for those who live in the university's
 * Workspace mail; Diia, which most Ukrainian adults have on their phone, for people who forgot their password or
 * prefer a QR code; BankID the least, as it sends people through their bank. Set your own from
 * `kpi_id_sign_ins_total{method}`.
 */
const signInMethodDefaults = { password: 0.55, passkey: 0.15, google: 0.1, diia: 0.12, bankid: 0.08 };

/**
 * How applications reach KPI ID, by share of application opens (RUSH_PROTOCOLS=ticket=0.3,…). Also estimates: the
 * campus portal and the older faculty sites on the ticket, the LMS and newer systems on OpenID Connect, the
 * library's and publishers' resources through SAML (Shibboleth SPs, eduGAIN), older systems on CAS, and small
 * internal sites behind nginx's auth_request.
 */
const protocolDefaults = { ticket: 0.3, oidc: 0.35, saml: 0.15, cas: 0.1, forwardAuth: 0.1 };

/**
 * The assumptions turning a campus into its peak rates, printed with every run so the figure can be argued with:
 * on the first morning of term most people arrive within the window, half of them bunched into its busiest third.
 */
export const assumptions = {
  /** Of all people, those who arrive within the window. */
  arriving: 0.8,
  /** The busiest part of the window carries this multiple of the window's average rate. */
  peakOverAverage: 2,
  /** Of those arriving, those whose session from an earlier day has ended (they sign in afresh). */
  signingInAfresh: 0.6,
  /** How those signing in afresh do it. */
  signInMethods: sharesFromEnvironment("RUSH_SIGN_IN_METHODS", signInMethodDefaults),
  /** Of fresh password sign-ins, those with an authenticator app (a second factor). */
  withSecondFactor: 0.15,
  /** Applications each arriving person opens (two or three, evenly). */
  applicationsEach: [2, 3],
  /** How applications reach KPI ID, by share of application opens. */
  protocols: sharesFromEnvironment("RUSH_PROTOCOLS", protocolDefaults),
  /** An OpenID Connect application refreshes its tokens once within the window and calls userinfo again. */
  refreshesPerOidcOpen: 1,
  /** Pages (and the requests they make) a person loads on a site behind nginx: one auth_request subrequest each. */
  forwardAuthChecksPerOpen: 5,
  /**
   * Each person arrives from an address of their own, as nginx passes it on (X-Forwarded-For, TRUST_PROXY): the
   * per-address throttles (Diia's QR links: 120 an hour) count people, not the generator's one loopback address.
   */
  ownAddressEach: true,
  /** Helpdesk people searching the console, and how often each searches. */
  helpdesk: { people: 30, secondsBetweenSearches: 20 },
  /** The day's changes a SCIM client (the student register) pushes during the window. */
  scimChangesPerWindow: 600,
} as const;

/** Draws a key by its share. */
export function drawShare<Key extends string>(shares: Record<Key, number>, fallback: Key): Key {
  let draw = Math.random();
  for (const [key, share] of Object.entries(shares) as [Key, number][]) {
    draw -= share;
    if (draw < 0) return key;
  }
  return fallback;
}

export interface PeakRates {
  /** Arriving people per second (each signs in afresh or not, and opens applications). */
  arrivals: number;
  searches: number;
  scimChanges: number;
  deviceJoins: number;
}

export function peakRates(campus: Campus): PeakRates {
  const windowSeconds = campus.windowMinutes * 60;
  const peak = (count: number) => ((count * assumptions.arriving) / windowSeconds) * assumptions.peakOverAverage;
  const { people, secondsBetweenSearches } = assumptions.helpdesk;
  return {
    arrivals: peak(campus.students + campus.staff),
    searches: people / secondsBetweenSearches,
    scimChanges: (assumptions.scimChangesPerWindow / windowSeconds) * assumptions.peakOverAverage,
    deviceJoins: peak(campus.devices),
  };
}

export function stepSeconds(campus: Campus): number {
  return (campus.windowMinutes * 60) / campus.compression;
}
