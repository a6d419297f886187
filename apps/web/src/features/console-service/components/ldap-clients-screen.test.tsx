import type { AdminLdapClient, AdminMe, RegisteredLdapClient } from "@kpi-id/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, mockFetch } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

const admin: AdminMe = {
  username: "admin",
  fullName: "Андрій Мельник",
  roles: ["admin"],
  permissions: ["people.view", "apps.view", "apps.manage", "ldap.manage"],
};

const lab: AdminLdapClient = {
  id: "3f2504e0-4f89-41d3-9a0c-0305e82c6301",
  name: "lab",
  title: "Лабораторні комп'ютери",
  bindDn: "cn=lab,ou=clients,dc=kpi,dc=ua",
  application: { id: "3f2504e0-4f89-41d3-9a0c-0305e82c6399", title: "Лабораторія 301" },
  subtree: "directory",
  attributes: ["uid", "uidNumber", "memberOf"],
  addresses: ["10.20.0.5"],
  kpiPasswordAllowed: true,
  createdAt: "2026-11-01T08:00:00Z",
  binds: { accepted: 41, refused: 2, lastAt: "2026-11-27T09:15:00Z" },
  failures: [
    { at: "2026-11-27T09:10:00Z", reason: "kpi_password_refused", address: "10.20.0.5" },
    { at: "2026-11-26T17:00:00Z", reason: "no_access", address: "10.20.0.5" },
  ],
};

/** Issue 77: the console lists the LDAP clients with what they read and their binds, registers and removes them. */
describe("the console's LDAP clients", () => {
  it("shows each client's reading rights and binds, registers one (secret once) and removes one", async () => {
    let clients = [lab];
    const sent: { registered: unknown[]; removed: string[] } = { registered: [], removed: [] };
    mockFetch({
      "GET /api/admin/me": () => json(admin),
      "GET /api/admin/applications": () => json({ applications: [] }),
      "GET /api/admin/ldap/clients": () => json({ clients, configured: true }),
      "POST /api/admin/ldap/clients": (_url, init) => {
        sent.registered.push(JSON.parse(String(init.body)));
        return json({
          name: "nextcloud",
          bindDn: "cn=nextcloud,ou=clients,dc=kpi,dc=ua",
          secret: "s3cr3t-shown-once",
        } satisfies RegisteredLdapClient);
      },
      "POST /api/admin/ldap/clients/lab/remove": () => {
        sent.removed.push("lab");
        clients = [];
        return json({ done: true });
      },
    });
    const user = userEvent.setup();
    renderApp("/uk/admin/ldap");
    const card = await screen.findByTestId("ldap-client");
    expect(card).toHaveTextContent("cn=lab,ou=clients,dc=kpi,dc=ua");
    expect(card).toHaveTextContent("Лабораторія 301");
    expect(within(card).getByTestId("ldap-client-binds")).toHaveTextContent("прийнято 41, відмовлено 2");
    await user.click(within(card).getByText("Останні відмови (2)"));
    expect(within(card).getByTestId("ldap-client-failures")).toHaveTextContent("пароль KPI ID цій особі не дозволено");

    await user.type(screen.getByLabelText("Ім'я (у його bind DN)"), "nextcloud");
    await user.type(screen.getByLabelText("Назва"), "Nextcloud");
    await user.type(screen.getByLabelText("Адреси, з яких прив'язується"), "10.20.0.7, 10.20.0.8");
    await user.click(screen.getByRole("button", { name: "Зареєструвати" }));
    expect(await screen.findByTestId("ldap-registered-secret")).toHaveTextContent("s3cr3t-shown-once");
    expect(sent.registered).toEqual([
      {
        name: "nextcloud",
        title: "Nextcloud",
        subtree: "people",
        applicationId: null,
        attributes: ["uid", "cn", "mail", "memberOf"],
        addresses: ["10.20.0.7", "10.20.0.8"],
        kpiPasswordAllowed: false,
      },
    ]);

    await user.click(screen.getByRole("button", { name: "Вилучити: Лабораторні комп'ютери" }));
    await user.click(await screen.findByTestId("confirm-action"));
    await waitFor(() => expect(screen.queryByTestId("ldap-client")).toBeNull());
    expect(sent.removed).toEqual(["lab"]);
    expect(screen.getByTestId("ldap-clients-none")).toBeVisible();
  });
});
