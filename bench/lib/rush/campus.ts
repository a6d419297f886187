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
}

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

export function campusFromEnvironment(): Campus {
  const multiples = (process.env.RUSH_MULTIPLES ?? "0.25,0.5,1,1.5,2,3,4,6,8").split(",").map(Number);
  if (multiples.some((each) => !Number.isFinite(each) || each <= 0)) throw new Error("RUSH_MULTIPLES: numbers > 0");
  return {
    students: number("RUSH_STUDENTS", 25_000),
    staff: number("RUSH_STAFF", 5_000),
    devices: number("RUSH_DEVICES", 40_000),
    windowMinutes: number("RUSH_WINDOW_MINUTES", 30),
    compression: number("RUSH_COMPRESSION", 60),
    multiples: multiples.sort((a, b) => a - b),
  };
}

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
  /** Of fresh password sign-ins, those with an authenticator app (a second factor). */
  withSecondFactor: 0.15,
  /** Applications each arriving person opens (two or three, evenly). */
  applicationsEach: [2, 3],
  /** How applications reach KPI ID, by share of application opens. */
  protocols: { ticket: 0.35, oidc: 0.45, cas: 0.2 },
  /** An OpenID Connect application refreshes its tokens once within the window and calls userinfo again. */
  refreshesPerOidcOpen: 1,
  /** Helpdesk people searching the console, and how often each searches. */
  helpdesk: { people: 30, secondsBetweenSearches: 20 },
  /** The day's changes a SCIM client (the student register) pushes during the window. */
  scimChangesPerWindow: 600,
} as const;

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
