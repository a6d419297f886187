import { demoPeople } from "@kpi-id/server/seed";

/** A Google account offered on the stand-in's account page; its fields are the ID token claims. */
export interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  /** Google Workspace domain (Google's `hd` claim): only accounts of a Workspace carry it. */
  hd?: string;
  name: string;
  given_name: string;
  family_name: string;
  /** Shown on the account page so a demo visitor knows what to expect. */
  note: string;
}

function splitName(fullName: string): { given_name: string; family_name: string } {
  const [given = fullName, ...rest] = fullName.split(" ");
  return { given_name: given, family_name: rest.join(" ") };
}

// Google subjects are opaque numeric strings of about 21 digits.
const subject = (n: number) => `10${String(n).padStart(19, "0")}`;

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1);

// The demo people's addresses are on the university's Workspace domains, so Google says so in `hd`.
const campusAccounts: GoogleAccount[] = demoPeople.map((person, index) => ({
  sub: subject(index + 1),
  email: person.email,
  email_verified: true,
  hd: domainOf(person.email),
  name: person.fullName,
  ...splitName(person.fullName),
  note: `campus account “${person.username}”`,
}));

/** The university's Google Workspace domains in the sandbox: the demo people's (GOOGLE_HOSTED_DOMAINS). */
export const sandboxHostedDomains: string[] = [...new Set(campusAccounts.map((account) => account.hd ?? ""))];

/**
 * Google accounts of the sandbox: the demo campus people, a Workspace account no campus person has,
 * a stranger's personal account and an unverified address.
 */
export const googleAccounts: GoogleAccount[] = [
  ...campusAccounts,
  {
    sub: subject(903),
    email: "vasyl.tkachenko@lll.kpi.ua",
    email_verified: true,
    hd: "lll.kpi.ua",
    name: "Василь Ткаченко",
    given_name: "Василь",
    family_name: "Ткаченко",
    note: "no campus account: sign-in is refused",
  },
  {
    sub: subject(901),
    email: "taras.hrytsenko.visitor@gmail.com",
    email_verified: true,
    name: "Тарас Гриценко",
    given_name: "Тарас",
    family_name: "Гриценко",
    note: "personal Google account, outside the university's Workspace and not linked: sign-in is refused",
  },
  {
    sub: subject(902),
    // A campus person's address, but Google has not verified it: it must not sign anyone in.
    email: demoPeople[0]?.email ?? "olena.kovalenko@lll.kpi.ua",
    email_verified: false,
    name: "Олена К. (unverified)",
    given_name: "Олена",
    family_name: "К.",
    note: "e-mail not verified by Google: sign-in is refused",
  },
];

export function findGoogleAccount(sub: string): GoogleAccount | undefined {
  return googleAccounts.find((account) => account.sub === sub);
}
