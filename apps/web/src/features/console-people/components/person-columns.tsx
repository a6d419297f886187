import type { Language } from "@kpi-id/contracts";
import type { TFunction } from "i18next";
import { Link } from "react-router";
import type { ConsoleColumn } from "@/features/console-shell/index.ts";
import { StatusBadge } from "@/features/console-shell/index.ts";
import { localizePath } from "@/lib/paths.ts";

interface PersonRow {
  id: string;
  fullName: string;
  username: string;
  email: string | null;
  status: "active" | "disabled";
}

/**
 * A console list of people: name (a link to the person), the columns to read beside it (at 390 px they stay in
 * view before the table scrolls sideways), username, e-mail, the list's own columns, status.
 */
export function personColumns<Row extends PersonRow>(
  t: TFunction,
  language: Language,
  middle: ConsoleColumn<Row>[],
  nextToName: ConsoleColumn<Row>[] = [],
): ConsoleColumn<Row>[] {
  return [
    {
      id: "name",
      header: t("admin:people.columns.name"),
      cell: ({ row }) => (
        <Link
          className="font-medium text-primary underline-offset-4 hover:underline"
          to={localizePath(language, `/admin/people/${row.original.id}`)}
        >
          {row.original.fullName}
        </Link>
      ),
    },
    ...nextToName,
    { id: "username", header: t("admin:people.columns.username"), cell: ({ row }) => row.original.username },
    {
      id: "email",
      header: t("admin:people.columns.email"),
      cell: ({ row }) => row.original.email ?? t("admin:person.notOnFile"),
    },
    ...middle,
    {
      id: "status",
      header: t("admin:people.columns.status"),
      cell: ({ row }) => <StatusBadge status={row.original.status} />,
    },
  ];
}
