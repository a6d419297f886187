import type { CreatedLdapPassword, LdapPassword, LdapPasswords } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { apiError, type Handler, json, mockFetch } from "../../../../test/fetch-mock.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { LdapSection } from "./ldap-section.tsx";

const nextcloud: LdapPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6201",
  name: "Nextcloud",
  createdAt: "2026-11-01T08:00:00Z",
  lastUsedAt: "2026-11-20T09:15:00Z",
  clientTitle: null,
  uses: [
    { usedAt: "2026-11-20T09:15:00Z", client: "Nextcloud", address: "10.20.0.5" },
    { usedAt: "2026-11-19T17:40:00Z", client: "", address: "10.30.1.9" },
  ],
};
const lab: LdapPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6202",
  name: "Лабораторія",
  createdAt: "2026-11-02T08:00:00Z",
  lastUsedAt: null,
  clientTitle: "Лабораторні комп'ютери",
  uses: [],
};
const labClient = { id: "3f2504e0-4f89-41d3-9a0c-0305e82c6299", title: "Лабораторні комп'ютери" };
const made: CreatedLdapPassword = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6203",
  name: "GitLab",
  password: "k2m4-p6q8-r9s7-t5v3",
};

/** A server with LDAP: the list, and the answers to creating and revoking (a refusal where a test asks). */
function ldapServer(answers: { create?: Handler; revoke?: Handler } = {}) {
  let passwords = [nextcloud, lab];
  const sent: { created: unknown[]; revoked: string[] } = { created: [], revoked: [] };
  mockFetch({
    "GET /api/account/ldap": () =>
      json({
        passwords,
        bindDn: "uid=oksana,ou=people,dc=kpi,dc=ua",
        username: "oksana",
        limit: 10,
        clients: [labClient],
      } satisfies LdapPasswords),
    "POST /api/account/ldap": (url, init) => {
      sent.created.push(JSON.parse(String(init.body)));
      return answers.create ? answers.create(url, init) : json(made);
    },
    [`POST /api/account/ldap/${lab.id}/revoke`]: (url, init) => {
      sent.revoked.push(lab.id);
      if (answers.revoke) return answers.revoke(url, init);
      passwords = passwords.filter((each) => each.id !== lab.id);
      return json({ ok: true });
    },
  });
  return sent;
}

/** Issue 77: a person makes, sees and revokes the application passwords LDAP systems accept. */
describe("the account page's application passwords (LDAP)", () => {
  it("is not shown when the service runs no LDAP", async () => {
    const fetch = mockFetch({ "GET /api/account/ldap": () => apiError("ldap.not_configured") });
    renderWithProviders(<LdapSection askAgain={vi.fn()} />);
    // While the answer is out the card waits with a placeholder; the refusal takes it away.
    expect(screen.getByTestId("account-ldap")).toBeInTheDocument();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByTestId("account-ldap")).toBeNull());
  });

  it("lists each password with when it was made and last used, through which system, from where", async () => {
    ldapServer();
    const user = userEvent.setup();
    renderWithProviders(<LdapSection askAgain={vi.fn()} />);
    const [used, unused] = (await screen.findAllByTestId("ldap-password")) as [HTMLElement, HTMLElement];
    expect(used).toHaveTextContent(/Створено .+ · Востаннє .+, Nextcloud \(10\.20\.0\.5\)/);
    await user.click(within(used).getByText("Останні використання (2)"));
    const items = within(within(used).getByRole("list")).getAllByRole("listitem");
    expect(items.map((item) => item.textContent?.split(" · ")[1])).toEqual([
      "Nextcloud (10.20.0.5)",
      "незареєстрований клієнт (10.30.1.9)",
    ]);
    expect(unused).toHaveTextContent("Ще не використовувався");
    expect(within(unused).getByTestId("ldap-password-client")).toHaveTextContent(
      "Працює лише через Лабораторні комп'ютери",
    );
    expect(within(used).queryByTestId("ldap-password-client")).toBeNull();
    expect(within(unused).queryByTestId("ldap-uses")).toBeNull();
  });

  it("shows a new password once, with the name and DN to sign in with, and never again", async () => {
    const sent = ldapServer();
    const user = userEvent.setup();
    renderWithProviders(<LdapSection askAgain={vi.fn()} />);
    const create = await screen.findByRole("button", { name: "Створити пароль" });
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText("Назва пароля"), "  GitLab ");
    await user.click(create);
    const panel = await screen.findByTestId("ldap-new");
    expect(panel).toHaveTextContent("Пароль для «GitLab». Його показано лише зараз");
    expect(within(panel).getByTestId("ldap-new-password")).toHaveTextContent(made.password);
    expect(panel).toHaveTextContent("uid=oksana,ou=people,dc=kpi,dc=ua");
    expect(within(panel).getByRole("button", { name: "Скопіювати пароль" })).toBeVisible();
    expect(sent.created).toEqual([{ name: "GitLab", clientId: null }]);
    expect(screen.getByLabelText("Назва пароля")).toHaveValue("");
    await user.click(within(panel).getByRole("button", { name: "Я його зберіг(-ла)" }));
    expect(screen.queryByTestId("ldap-new")).toBeNull();
    expect(screen.queryByText(made.password)).toBeNull();
  });

  it("ties a new password to one registered system when the person picks it", async () => {
    const sent = ldapServer();
    const user = userEvent.setup();
    renderWithProviders(<LdapSection askAgain={vi.fn()} />);
    const choice = await screen.findByLabelText("Працює через");
    expect(choice).toHaveValue("");
    await user.type(screen.getByLabelText("Назва пароля"), "Лабораторія 2");
    await user.selectOptions(choice, "Лабораторні комп'ютери");
    await user.click(screen.getByRole("button", { name: "Створити пароль" }));
    await screen.findByTestId("ldap-new");
    expect(sent.created).toEqual([{ name: "Лабораторія 2", clientId: labClient.id }]);
    expect(screen.getByLabelText("Працює через")).toHaveValue("");
  });

  it("asks before revoking, and the password leaves the list once confirmed", async () => {
    const sent = ldapServer();
    const user = userEvent.setup();
    renderWithProviders(<LdapSection askAgain={vi.fn()} />);
    await screen.findAllByTestId("ldap-password");
    await user.click(screen.getByRole("button", { name: "Відкликати: Лабораторія" }));
    const dialog = await screen.findByRole("dialog", { name: "Відкликати пароль застосунку «Лабораторія»?" });
    await user.click(within(dialog).getByRole("button", { name: "Скасувати" }));
    expect(sent.revoked).toEqual([]);
    await user.click(screen.getByRole("button", { name: "Відкликати: Лабораторія" }));
    await user.click(await screen.findByTestId("confirm-action"));
    await waitFor(() => expect(screen.getAllByTestId("ldap-password")).toHaveLength(1));
    expect(sent.revoked).toEqual([lab.id]);
    expect(screen.getByTestId("ldap-password-name")).toHaveTextContent("Nextcloud");
  });

  it("says a refusal by its code in the person's language", async () => {
    await initTestI18n("en");
    try {
      ldapServer({ create: () => apiError("ldap.limit_reached"), revoke: () => apiError("ldap.password_not_found") });
      const user = userEvent.setup();
      renderWithProviders(<LdapSection askAgain={vi.fn()} />, "/en/");
      await user.type(await screen.findByLabelText("Password name"), "GitLab");
      await user.click(screen.getByRole("button", { name: "Create password" }));
      expect(
        await screen.findByText(
          "You already have 10 application passwords. Revoke one you no longer use, then create a new one.",
        ),
      ).toBeVisible();
      expect(screen.queryByTestId("ldap-new")).toBeNull();
      await user.click(screen.getByRole("button", { name: "Revoke: Лабораторія" }));
      await user.click(await screen.findByTestId("confirm-action"));
      expect(
        await screen.findByText("There is no such application password: it has already been revoked."),
      ).toBeVisible();
    } finally {
      await initTestI18n("uk");
    }
  });
});
