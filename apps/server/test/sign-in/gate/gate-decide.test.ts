import type { AuthMethod } from "@kpi-id/contracts";
import { describe, expect, it } from "vitest";
import { signInAmr } from "../../../src/model/sessions/strength.ts";
import { decide, type GateDecisionKind, type GateFacts } from "../../../src/sign-in/gate/decide.ts";

/** The person's state as the operator and the person left it. */
const people = {
  active: { status: "active", require_mfa: false, factor: false },
  "active with a factor": { status: "active", require_mfa: false, factor: true },
  disabled: { status: "disabled", require_mfa: false, factor: true },
  // An erased person is anonymised and disabled (model/users/anonymise.ts).
  erased: { status: "disabled", require_mfa: false, factor: false },
  "require_mfa, no factor": { status: "active", require_mfa: true, factor: false },
  "require_mfa, a factor": { status: "active", require_mfa: true, factor: true },
} as const;

/** What the application asks, and whether this person has access to it. */
const applications = {
  none: { require_mfa: false, lifecycle: "live", suspended: false, access: true, consent: false },
  "second factor": { require_mfa: true, lifecycle: "live", suspended: false, access: true, consent: false },
  testing: { require_mfa: false, lifecycle: "testing", suspended: false, access: false, consent: false },
  suspended: { require_mfa: false, lifecycle: "live", suspended: true, access: false, consent: false },
  "community needing consent": { require_mfa: false, lifecycle: "live", suspended: false, access: true, consent: true },
  "no access": { require_mfa: false, lifecycle: "live", suspended: false, access: false, consent: false },
  // The order's sharpest case: no access and a second factor required. Refused at once, nobody is asked for a factor.
  "no access, second factor": { require_mfa: true, lifecycle: "live", suspended: false, access: false, consent: true },
} as const;

const methods: AuthMethod[] = ["PASSWORD", "GOOGLE", "DIIA", "BANK_ID", "PASSKEY"];

type Person = (typeof people)[keyof typeof people];
type Application = (typeof applications)[keyof typeof applications];

function factsOf(person: Person, application: Application, method: AuthMethod, asks: GateFacts["asks"] = {}) {
  const asked: string[] = [];
  const facts: GateFacts = {
    session: {
      authMethod: method,
      amr: signInAmr(method),
      createdAt: new Date("2026-11-28T08:00:00Z"),
      strongAt: null,
      user: { status: person.status, require_mfa: person.require_mfa },
    },
    application: {
      require_mfa: application.require_mfa,
      lifecycle: application.lifecycle,
      suspended_at: application.suspended ? new Date("2026-11-01T00:00:00Z") : null,
    },
    asks,
    hasAccess: async () => {
      asked.push("access");
      return application.access;
    },
    canProveMore: async () => {
      asked.push("factor");
      return person.factor;
    },
    needsConsent: async () => {
      asked.push("consent");
      return application.consent;
    },
  };
  return { facts, asked };
}

/**
 * The decision table as the issue states it (may sign in → fresh enough → access → second factor → consent → issue),
 * written out per cell: Diia, BankID and passkeys are two factors on their own; a password and Google one.
 */
function expected(person: Person, application: Application, method: AuthMethod): GateDecisionKind {
  if (person.status !== "active") return "sign_in";
  if (!application.access) return application.lifecycle === "testing" ? "testing_only" : "no_access";
  const twoFactors = method === "DIIA" || method === "BANK_ID" || method === "PASSKEY";
  if ((application.require_mfa || person.require_mfa) && !twoFactors) {
    return person.factor ? "step_up" : "set_up_second_factor";
  }
  return application.consent ? "consent" : "issue";
}

const matrix = Object.entries(people).flatMap(([personName, person]) =>
  Object.entries(applications).flatMap(([applicationName, application]) =>
    methods.map((method) => ({ personName, person, applicationName, application, method })),
  ),
);

describe("the gate's decision over every person, application and sign-in method", () => {
  it.each(matrix)("$personName · $applicationName · $method", async ({ person, application, method }) => {
    const { facts } = factsOf(person, application, method);
    expect((await decide(facts)).kind).toBe(expected(person, application, method));
  });

  it("covers the issue's whole matrix", () => {
    expect(matrix).toHaveLength(6 * 7 * 5);
  });

  it("decides in one order: the cases two protocols answered differently, and require_mfa after Google", async () => {
    const cells: [keyof typeof people, keyof typeof applications, AuthMethod, GateDecisionKind, string[]][] = [
      // OpenID Connect and SAML asked for the step-up first; the ticket path and CAS refused first.
      ["active with a factor", "no access, second factor", "PASSWORD", "no_access", ["access"]],
      ["active", "no access, second factor", "GOOGLE", "no_access", ["access"]],
      // require_mfa was applied only after a password.
      ["require_mfa, no factor", "none", "GOOGLE", "set_up_second_factor", ["access", "factor"]],
      ["require_mfa, a factor", "none", "GOOGLE", "step_up", ["access", "factor"]],
      ["require_mfa, a factor", "community needing consent", "DIIA", "consent", ["access", "consent"]],
      // A disabled person's session reads nothing.
      ["disabled", "none", "PASSKEY", "sign_in", []],
    ];
    for (const [personName, applicationName, method, decision, asked] of cells) {
      const run = factsOf(people[personName], applications[applicationName], method);
      expect((await decide(run.facts)).kind, `${personName} · ${applicationName} · ${method}`).toBe(decision);
      expect(run.asked, `${personName} · ${applicationName} · ${method}`).toEqual(asked);
    }
  });

  it("a request for a fresh sign-in or for two factors is met before anything else is asked", async () => {
    const later = new Date("2026-11-28T09:00:00Z");
    const stale = factsOf(people.active, applications["no access"], "DIIA", { signedInSince: later });
    expect((await decide(stale.facts)).kind).toBe("sign_in_again");
    expect(stale.asked).toEqual([]);
    const fresh = factsOf(people.active, applications.none, "DIIA", {
      signedInSince: new Date("2026-11-28T07:00:00Z"),
    });
    expect((await decide(fresh.facts)).kind).toBe("issue");
    const acr = factsOf(people["active with a factor"], applications.none, "PASSWORD", { multiFactor: true });
    expect((await decide(acr.facts)).kind).toBe("step_up");
    const noSession = { ...factsOf(people.active, applications.none, "PASSWORD").facts, session: undefined };
    expect((await decide(noSession)).kind).toBe("sign_in");
  });
});
