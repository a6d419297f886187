import { describe, expect, it } from "vitest";
import { isUniversityWorkspaceAccount } from "../../../src/sign-in/google/person.ts";

describe("which Google accounts link themselves by address", () => {
  const domains = ["kpi.ua", "lll.kpi.ua"];
  it("only an account of the university's Workspace whose address is on its domains", () => {
    expect(isUniversityWorkspaceAccount({ hostedDomain: "lll.kpi.ua" }, "o.k@lll.kpi.ua", domains)).toBe(true);
    expect(isUniversityWorkspaceAccount({ hostedDomain: "kpi.ua" }, "o.k@LLL.kpi.ua", domains)).toBe(true);
    // A personal Google account registered with a campus address: Google sends no hd.
    expect(isUniversityWorkspaceAccount({}, "o.k@kpi.ua", domains)).toBe(false);
    // Another organisation's Workspace.
    expect(isUniversityWorkspaceAccount({ hostedDomain: "evil.example" }, "o.k@kpi.ua", domains)).toBe(false);
    expect(isUniversityWorkspaceAccount({ hostedDomain: "kpi.ua" }, "o.k@gmail.com", domains)).toBe(false);
    expect(isUniversityWorkspaceAccount({ hostedDomain: "kpi.ua" }, "o.k@notkpi.ua", domains)).toBe(false);
    // No domains configured: nothing links itself.
    expect(isUniversityWorkspaceAccount({ hostedDomain: "kpi.ua" }, "o.k@kpi.ua", [])).toBe(false);
  });
});
