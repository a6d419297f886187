import { type PersonDetail, type UnitRoleName, type UnitRoleRequest, unitRoleNames } from "@kpi-id/contracts";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { nativeSelectClass } from "@/components/ui/native-select.ts";
import { Section, UnitPicker, useCan, useConsoleAction, useUnitName } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

/** A grant or a revocation of a role in a unit, with a toast for its outcome; every console answer is read again. */
function useUnitRoleAction(personId: string, action: "grant" | "revoke") {
  const { t } = useTranslation("admin");
  const describeError = useErrorMessage();
  const mutation = useConsoleAction<UnitRoleRequest>(
    () => `/api/admin/people/${personId}/unit-roles/${action}`,
    (request) => request,
  );
  return {
    pending: mutation.isPending,
    run: (request: UnitRoleRequest, onDone?: () => void) =>
      mutation.mutate(request, {
        onSuccess: () => {
          notify("success", t(action === "grant" ? "admin:units.granted" : "admin:units.revoked"));
          onDone?.();
        },
        onError: (error) => notify("error", describeError(error, "admin:failed").message),
      }),
  };
}

function GrantUnitRoleForm({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const grant = useUnitRoleAction(person.id, "grant");
  const [role, setRole] = useState<UnitRoleName>("unit_admin");
  const [unitId, setUnitId] = useState("");
  // Each role given starts the unit picker afresh: its search as well as its choice.
  const [given, setGiven] = useState(0);
  const roleId = useId();
  return (
    <form
      className="flex max-w-xl flex-col gap-3 border-t border-border pt-3"
      aria-label={t("admin:units.grant")}
      onSubmit={(event) => {
        event.preventDefault();
        if (!unitId) return;
        grant.run({ role, unitId }, () => {
          setUnitId("");
          setGiven((count) => count + 1);
        });
      }}
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor={roleId}>{t("admin:units.role")}</Label>
        <select
          id={roleId}
          className={nativeSelectClass}
          value={role}
          onChange={(event) => setRole(event.target.value as UnitRoleName)}
          data-testid="unit-role-name"
        >
          {unitRoleNames.map((name) => (
            <option key={name} value={name}>
              {t(`admin:roles.${name}`)}
            </option>
          ))}
        </select>
      </div>
      <UnitPicker
        key={given}
        label={t("admin:units.unit")}
        value={unitId}
        onChange={(unit) => setUnitId(unit?.id ?? "")}
        testId="unit-role-unit"
      />
      <Button type="submit" size="sm" className="self-start" disabled={!unitId} loading={grant.pending}>
        {t("admin:units.grant")}
      </Button>
    </form>
  );
}

/**
 * The person's roles in units (issue 79): each reaches its unit and every unit below it. Admins grant and revoke
 * them (`people.roles`); the section is shown to others only when the person holds one.
 */
export function PersonUnitRoles({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const unitName = useUnitName();
  const canGrant = useCan("people.roles");
  const revoke = useUnitRoleAction(person.id, "revoke");
  const held = person.unitRoles ?? [];
  if (!canGrant && held.length === 0) return null;
  return (
    <Section title={t("admin:units.title")} testId="person-unit-roles">
      {held.length === 0 ? <p className="text-sm text-muted-foreground">{t("admin:units.noRoles")}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="unit-role-list">
        {held.map(({ role, unit }) => {
          const described = t("admin:units.heldRole", { role: t(`admin:roles.${role}`), unit: unit.code });
          return (
            <li key={`${role}:${unit.id}`} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                {described} <span className="text-muted-foreground">({unitName(unit)})</span>
              </span>
              {canGrant ? (
                <ConfirmButton
                  question={t("admin:units.revokeQuestion", { role: described, name: person.fullName })}
                  consequence={t("admin:units.revokeConsequence", { unit: unit.code })}
                  confirmLabel={t("admin:units.revoke")}
                  onConfirm={() => revoke.run({ role, unitId: unit.id })}
                  loading={revoke.pending}
                >
                  {t("admin:units.revoke")}
                  <span className="sr-only">: {described}</span>
                </ConfirmButton>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canGrant && !person.erasedAt ? <GrantUnitRoleForm person={person} /> : null}
    </Section>
  );
}
