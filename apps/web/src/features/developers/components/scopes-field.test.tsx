import { claimsByScope, type DeveloperClientType } from "@kpi-id/contracts";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { ScopesField } from "./scopes-field.tsx";

async function scopesField(language: "uk" | "en", clientType: DeveloperClientType = "web") {
  const onChange = vi.fn();
  await initTestI18n(language);
  renderWithProviders(
    <ScopesField scopes={["openid", "profile"]} clientType={clientType} onChange={onChange} />,
    `/${language}/`,
  );
  await screen.findByTestId("scope-openid");
  return { onChange, user: userEvent.setup() };
}

/** The words of one scope's line (its checkbox's label, with the claims it adds), spaces as a person reads them. */
const lineOf = (scope: string) =>
  (screen.getByTestId(`scope-${scope}`).closest("label")?.textContent ?? "").replace(/\s+/g, " ").trim();

/** Issue 60: each scope with what it adds, claim by claim, as the server releases them (one table, in contracts). */
describe("the scopes field of the developers' form", () => {
  it("lists each scope's claims as the server releases them, in English", async () => {
    await scopesField("en");
    expect(lineOf("openid")).toBe("openid — who signed in (always)Claims: sub, amr, acr");
    expect(lineOf("profile")).toBe("profile — full nameClaims: name, given_name, family_name");
    expect(lineOf("email")).toBe("email — e-mail addressClaims: email, email_verified");
    expect(lineOf("kpi")).toBe(
      "kpi — student and employee recordsClaims: kpi_student_id, kpi_employee_id, kpi_records, " +
        "eduperson_affiliation, eduperson_scoped_affiliation",
    );
    expect(lineOf("offline_access")).toBe(
      "offline_access — staying signed in (refresh tokens)No claim: a refresh token, so the application stays signed in.",
    );
  });

  it("names under profile exactly the claims the server releases, so no username, which no claim carries", async () => {
    await scopesField("en");
    const shown = lineOf("profile")
      .replace(/^.*Claims: /, "")
      .split(", ");
    expect(shown).toEqual([...claimsByScope.profile]);
    // The server's table has no username claim today: if one is added there, it is listed here by the line above.
    expect(screen.getByRole("group", { name: "Data it asks for" })).not.toHaveTextContent(/username/);
  });

  it("lists the claims in Ukrainian too, and that the ticket exchange does not use scopes", async () => {
    await scopesField("uk");
    expect(lineOf("profile")).toBe("profile — повне ім'яТвердження: name, given_name, family_name");
    expect(screen.getByTestId("ticket-data-note")).toHaveTextContent(
      "Обмін квитка не використовує областей доступу: його дані завжди містять USER_ID, NAME",
    );
  });

  it("leaves the ticket exchange out for a public client, and always keeps openid", async () => {
    const { onChange, user } = await scopesField("en", "public");
    expect(screen.queryByTestId("ticket-data-note")).not.toBeInTheDocument();
    expect(screen.getByTestId("scope-openid")).toBeDisabled();
    await user.click(screen.getByTestId("scope-email"));
    expect(onChange).toHaveBeenLastCalledWith(["openid", "profile", "email"]);
  });
});
