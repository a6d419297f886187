import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { id, sampleDeveloperApplication } from "../../../../test/developers.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { recordStatusesEntering } from "../../../../test/statuses-entering.ts";
import { PeopleSection } from "./people-section.tsx";

const invitePath = `/api/developers/applications/${id}/testers`;
const invitedWords = (person: string) =>
  `If “${person}” has a KPI ID account, they get an invitation (a mail and a notice on their developers' page) and join only when they accept it.`;

/** The invitation form, with each answer held until the test lets it go. */
async function testersSection() {
  const sent: unknown[] = [];
  const answers: (() => void)[] = [];
  mockFetch({
    [`POST ${invitePath}`]: async (_url, init) => {
      sent.push(JSON.parse(String(init.body)));
      await new Promise<void>((answered) => answers.push(answered));
      return json(sampleDeveloperApplication);
    },
  });
  await initTestI18n("en");
  renderWithProviders(<PeopleSection application={sampleDeveloperApplication} group="testers" />, "/en/");
  const user = userEvent.setup();
  const invite = async (person: string) => {
    await user.type(screen.getByLabelText("Username or e-mail address"), person);
    await user.click(screen.getByRole("button", { name: "Invite a tester" }));
    // Its answer is held: the request is on its way.
    await waitFor(() => expect(answers).toHaveLength(1));
  };
  const answer = () => answers.shift()?.();
  return { sent, invite, answer };
}

describe("inviting a tester", () => {
  it("says each invitation, the same name's second too: its status leaves while one is sent and comes back empty", async () => {
    const { sent, invite, answer } = await testersSection();
    await invite("classmate");
    answer();
    const first = await screen.findByRole("status");
    await waitFor(() => expect(first).toHaveTextContent(invitedWords("classmate")));

    await invite("classmate");
    expect(sent).toEqual([{ person: "classmate" }, { person: "classmate" }]);
    // While the second is on its way the line is gone, so the answer's line is a new status, not an unchanged one.
    expect(screen.queryByTestId("testers-invited")).not.toBeInTheDocument();
    const statuses = recordStatusesEntering();
    answer();
    const second = await screen.findByRole("status");
    expect(second).not.toBe(first);
    // It enters empty and its words go in after: what a screen reader reads as news.
    expect(statuses.textWhenEntered(second)).toBe("");
    statuses.stop();
    await waitFor(() => expect(second).toHaveTextContent(invitedWords("classmate")));
  });
});
