import type { DeveloperApplication } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { id, sampleDeveloperApplication } from "../../../../test/developers.ts";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp, student } from "../../../../test/render.tsx";

const devicePath = `/api/developers/applications/${id}/device-flow`;

/** The application page, its GET answering what the last POST set, as the server would. */
function open(language: "uk" | "en", deviceFlow: boolean) {
  let application: DeveloperApplication = { ...sampleDeveloperApplication, clientType: "public", deviceFlow };
  const sent: unknown[] = [];
  mockFetch({
    "GET /user": () => json(student),
    [`GET /api/developers/applications/${id}`]: () => json(application),
    [`GET /api/developers/applications/${id}/health`]: () => json({ signInsPerDay: [], failures: [] }),
    [`POST ${devicePath}`]: async (_url, init) => {
      const body = JSON.parse(String(init.body)) as { enabled: boolean };
      sent.push(body);
      application = { ...application, deviceFlow: body.enabled };
      return json(application);
    },
  });
  renderApp(`/${language}/developers/${id}`);
  return { sent, user: userEvent.setup() };
}

/** Issue 60 (GitHub's "Enable Device Flow"): the owner turns device sign-in on or off and the page shows it. */
describe("the device sign-in switch on the developers' page", () => {
  it("turns device sign-in on and shows it on with its endpoint, in English", async () => {
    const { sent, user } = open("en", false);
    const toggle = await screen.findByRole("checkbox", { name: /Enable device sign-in/ });
    expect(toggle).not.toBeChecked();
    expect(screen.getByTestId("device-flow-state")).toHaveTextContent("Device sign-in is off.");
    expect(screen.queryByText("Device authorization endpoint:")).not.toBeInTheDocument();
    await user.click(toggle);
    await waitFor(() => expect(sent).toEqual([{ enabled: true }]));
    await waitFor(() => expect(screen.getByTestId("device-flow-state")).toHaveTextContent("Device sign-in is on."));
    expect(toggle).toBeChecked();
    expect(screen.getByText(`${window.location.origin}/oidc/device/auth`)).toBeInTheDocument();
  });

  it("turns it off again, in Ukrainian", async () => {
    const { sent, user } = open("uk", true);
    const toggle = await screen.findByRole("checkbox", { name: /Увімкнути вхід із пристрою/ });
    expect(toggle).toBeChecked();
    expect(screen.getByTestId("device-flow-state")).toHaveTextContent("Вхід із пристрою увімкнено.");
    await user.click(toggle);
    await waitFor(() => expect(sent).toEqual([{ enabled: false }]));
    await waitFor(() =>
      expect(screen.getByTestId("device-flow-state")).toHaveTextContent("Вхід із пристрою вимкнено."),
    );
    expect(toggle).not.toBeChecked();
  });
});
