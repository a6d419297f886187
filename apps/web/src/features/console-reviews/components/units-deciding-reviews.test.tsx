import type { AdminMe, AdminUnits, ReviewQueue } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fictUnitAdmin, unitTree } from "../../../../test/console-units.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Адмін Консолі",
  roles: ["admin"],
  permissions: ["console.enter", "apps.view", "apps.review", "apps.delegate_reviews"],
};
const [fict, , , fel] = unitTree;
if (!fict || !fel) throw new Error("the test tree has FICT and FEL");
const fictDecides = unitTree.map((unit) => ({ ...unit, reviewsFinal: unit.code === "FICT" }));

function openQueue(language: "uk" | "en", operator: AdminMe, units: AdminUnits["units"]) {
  const sent: { unit: string; body: unknown }[] = [];
  const record = (unit: string) => (_url: URL, init: RequestInit) => {
    sent.push({ unit, body: JSON.parse(String(init.body)) });
    return json({ done: true });
  };
  const calls = mockFetch({
    "GET /api/admin/me": () => json(operator),
    "GET /api/admin/reviews": () => json({ reviews: [] } satisfies ReviewQueue),
    "GET /api/admin/units": () => json({ units } satisfies AdminUnits),
    [`POST /api/admin/units/${fict?.id}/reviews-final`]: record("FICT"),
    [`POST /api/admin/units/${fel?.id}/reviews-final`]: record("FEL"),
  });
  renderApp(`/${language}/admin/reviews`);
  return { sent, calls, user: userEvent.setup() };
}

/** Issue 79: an admin lets a unit's admins decide its reviews finally, and takes it back, on the review screen. */
describe("the units that decide their own reviews", () => {
  it("lists them, lets another decide after saying what it means, and takes one back (en)", async () => {
    const { sent, user } = openQueue("en", admin, fictDecides);
    const section = await screen.findByTestId("units-deciding-reviews");
    expect(section).toHaveTextContent("Elsewhere it is a first approval");
    const list = within(section).getByTestId("units-deciding-list");
    await waitFor(() => expect(list).toHaveTextContent("FICT Faculty of Informatics and Computer Science"));
    const grant = within(section).getByRole("button", { name: "Let the unit decide" });
    expect(grant).toBeDisabled();

    // A department of FICT decides through its faculty already: the screen says so.
    const search = within(section).getByLabelText("Search by code or name");
    await user.type(search, "computer engineering");
    await user.click(within(section).getByRole("radio", { name: /FICT-CS/ }));
    expect(within(section).getByTestId("units-deciding-through")).toHaveTextContent(
      "FICT-CS decides already, as a unit below FICT",
    );

    await user.clear(search);
    await user.type(search, "electronics");
    await user.click(within(section).getByRole("radio", { name: /FEL/ }));
    expect(grant).toBeEnabled();
    await user.click(grant);
    const question = await screen.findByRole("dialog");
    expect(question).toHaveTextContent("Let the admins of FEL · Faculty of Electronics make applications live?");
    expect(question).toHaveTextContent("makes it live at once, without central IT's review");
    await user.click(within(question).getByTestId("confirm-action"));
    await waitFor(() => expect(sent).toEqual([{ unit: "FEL", body: { final: true } }]));
    expect(await screen.findByText("FEL decides its own reviews now.")).toBeVisible();

    await user.click(within(list).getByRole("button", { name: "Take back: FICT" }));
    const takeBack = await screen.findByRole("dialog");
    expect(takeBack).toHaveTextContent("Take back FICT's own decisions?");
    await user.click(within(takeBack).getByTestId("confirm-action"));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ unit: "FICT", body: { final: false } });
  });

  it("says when no unit decides, and that a unit chosen decides already, in Ukrainian", async () => {
    const { user } = openQueue("uk", admin, unitTree);
    const section = await screen.findByTestId("units-deciding-reviews");
    expect(await within(section).findByTestId("units-deciding-none")).toHaveTextContent(
      "Жоден підрозділ не вирішує перевірки сам",
    );
    await user.click(within(section).getByRole("radio", { name: /^FICT Факультет/ }));
    expect(within(section).getByRole("button", { name: "Дозволити підрозділу вирішувати" })).toBeEnabled();
  });

  it("offers nothing to choose for a unit that decides already", async () => {
    const { user } = openQueue("uk", admin, fictDecides);
    const section = await screen.findByTestId("units-deciding-reviews");
    await within(section).findByTestId("units-deciding-list");
    await user.click(await within(section).findByRole("radio", { name: /^FICT Факультет/ }));
    expect(within(section).getByTestId("units-deciding-already")).toHaveTextContent("FICT вже сам вирішує перевірки.");
    expect(within(section).getByRole("button", { name: "Дозволити підрозділу вирішувати" })).toBeDisabled();
  });

  it("is not shown before any unit is imported: no unit admin's approval could be final", async () => {
    const { calls } = openQueue("en", admin, []);
    await screen.findByTestId("review-count");
    await waitFor(() => expect(calls.mock.calls.some(([url]) => String(url).includes("/api/admin/units"))).toBe(true));
    await waitFor(() => expect(screen.queryByTestId("units-deciding-reviews")).not.toBeInTheDocument());
  });

  it("is not shown to a unit admin, who does not make their own decisions final", async () => {
    const { calls } = openQueue(
      "en",
      { ...fictUnitAdmin, permissions: [...fictUnitAdmin.permissions, "apps.review"] },
      fictDecides,
    );
    await screen.findByTestId("review-count");
    expect(screen.queryByTestId("units-deciding-reviews")).not.toBeInTheDocument();
    expect(calls.mock.calls.some(([url]) => String(url).includes("/api/admin/units"))).toBe(false);
  });
});
