import type { AdminApplicationDetail } from "@kpi-id/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Section, UnitPicker, useCan, useConsoleOperator, useUnitName } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useAssignUnit } from "../api/applications-api.ts";

/**
 * Whether the operator reaches the whole university (admin, helpdesk): only they may leave an application or a rule
 * without a unit. A unit admin's pickers offer their units alone, and never "none" (the server refuses it: a rule
 * without a unit would open the application to the whole university).
 */
export function useReachesEverywhere(): boolean {
  return useConsoleOperator().roles.length > 0;
}

/** The unit a unit admin's new application belongs to at first: the unit their first unit admin role is held in. */
export function useFirstUnitOfMine(): string {
  const operator = useConsoleOperator();
  return operator.unitRoles?.find((held) => held.role === "unit_admin")?.unit.id ?? "";
}

/**
 * Which unit the application belongs to (issue 79): a unit's applications are its unit admins' to run, central IT's
 * (no unit) the admins' alone. An admin assigns any unit or none; a unit admin moves it between their units.
 */
export function UnitSection({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation("admin");
  const unitName = useUnitName();
  const canAssign = useCan("apps.manage");
  const everywhere = useReachesEverywhere();
  const describeError = useErrorMessage();
  const assign = useAssignUnit(application.id);
  const current = application.unit ?? null;
  const [chosen, setChosen] = useState(current?.id ?? "");
  return (
    <Section title={t("admin:units.owner")} testId="application-unit">
      <p className="text-sm" data-testid="application-unit-current">
        {current ? (
          <>
            <span className="font-medium">{current.code}</span> {unitName(current)}
          </>
        ) : (
          t("admin:units.central")
        )}
      </p>
      {canAssign ? (
        <form
          className="flex flex-col gap-3"
          aria-label={t("admin:units.assign")}
          onSubmit={(event) => {
            event.preventDefault();
            assign.mutate(
              { unitId: chosen || null },
              {
                onSuccess: () => notify("success", t("admin:units.assigned")),
                onError: (error) => notify("error", describeError(error, "admin:failed").message),
              },
            );
          }}
        >
          <UnitPicker
            label={t("admin:units.assignTo")}
            value={chosen}
            onChange={(unit) => setChosen(unit?.id ?? "")}
            none={everywhere ? t("admin:units.central") : undefined}
            testId="application-unit-picker"
          />
          <Button
            type="submit"
            variant="outline"
            size="sm"
            className="self-start"
            disabled={chosen === (current?.id ?? "") || (!everywhere && !chosen)}
            loading={assign.isPending}
          >
            {t("admin:units.assign")}
          </Button>
        </form>
      ) : null}
    </Section>
  );
}
