import type { PersonDetail } from "@kpi-id/contracts";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import {
  Facts,
  Held,
  ScreenLoading,
  Section,
  StatusBadge,
  useAnswersFirst,
  useApplications,
  useAppTitle,
  useCan,
  useConsoleAction,
  useRoleRefusalsForgotten,
} from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { usePerson } from "../api/people-api.ts";
import { personWifiKey, usePersonWifi } from "../api/wifi-api.ts";
import { ErasureSection } from "./person-erasure.tsx";
import { PersonHistory } from "./person-history.tsx";
import { PersonRecords } from "./person-records.tsx";
import { RecoverySection } from "./person-recovery.tsx";
import { PersonUnitRoles } from "./person-unit-roles.tsx";
import { PersonWifiSection } from "./person-wifi.tsx";
import { ProfileForm } from "./profile-form.tsx";

const when = (iso: string, language: string) =>
  new Date(iso).toLocaleString(language === "uk" ? "uk-UA" : "en-GB", { dateStyle: "medium", timeStyle: "short" });

/** One action of the person screen: the POST, a toast for the outcome, every answer read again. */
function usePersonAction<Input = void>(person: PersonDetail, path: string, body?: (input: Input) => unknown) {
  const { t } = useTranslation("admin");
  const describeError = useErrorMessage();
  const action = useConsoleAction<Input>(() => `/api/admin/people/${person.id}/${path}`, body);
  return {
    pending: action.isPending,
    run: (input: Input) =>
      action.mutate(input, {
        onSuccess: () => notify("success", t("admin:person.done")),
        onError: (error) => notify("error", describeError(error, "admin:failed").message),
      }),
  };
}

function AccessSection({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const appTitle = useAppTitle();
  const canChange = useCan("people.access");
  const applications = useApplications(canChange);
  const [chosen, setChosen] = useState("");
  const selectId = useId();
  const grant = usePersonAction<string>(person, "access/grant", (applicationId) => ({ applicationId }));
  const revoke = usePersonAction<string>(person, "access/revoke", (applicationId) => ({ applicationId }));
  const held = new Set(person.applications.map((application) => application.id));
  return (
    <Section title={t("admin:person.applications")} testId="person-applications">
      {person.applications.length === 0 ? <p className="text-sm text-muted-foreground">{t("admin:none")}</p> : null}
      <ul className="flex flex-col gap-2">
        {person.applications.map((application) => (
          <li key={application.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>{appTitle(application)}</span>
            {canChange ? (
              <ConfirmButton
                question={t("admin:person.revokeQuestion", { app: appTitle(application) })}
                consequence={t("admin:person.revokeConsequence", { name: person.fullName, app: appTitle(application) })}
                confirmLabel={t("admin:person.revoke")}
                onConfirm={() => revoke.run(application.id)}
              >
                {t("admin:person.revoke")}
              </ConfirmButton>
            ) : null}
          </li>
        ))}
      </ul>
      {canChange ? (
        <div className="flex flex-wrap items-end gap-2">
          <label htmlFor={selectId} className="sr-only">
            {t("admin:person.chooseApplication")}
          </label>
          <select
            id={selectId}
            className="h-9 rounded-md border border-border bg-white px-2 text-sm"
            value={chosen}
            onChange={(event) => setChosen(event.target.value)}
            data-testid="grant-application"
          >
            <option value="">{t("admin:person.chooseApplication")}</option>
            {applications.data
              ?.filter((application) => !held.has(application.id))
              .map((application) => (
                <option key={application.id} value={application.id}>
                  {appTitle(application)}
                </option>
              ))}
          </select>
          <Button size="sm" disabled={!chosen} loading={grant.pending} onClick={() => grant.run(chosen)}>
            {t("admin:person.grant")}
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

function PersonView({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const [editing, setEditing] = useState(false);
  const canEdit = useCan("people.edit");
  const notOnFile = t("admin:person.notOnFile");
  const removedByProvisioning = person.provisioning.removedAt;
  return (
    <div className="flex flex-col gap-4">
      {person.erasedAt ? (
        <Alert
          variant="destructive"
          testId="person-erased"
          title={t("admin:erase.erasedOn", { date: when(person.erasedAt, language) })}
        />
      ) : null}
      {removedByProvisioning && !person.erasedAt ? (
        <Alert
          variant="destructive"
          testId="person-removed"
          title={t("admin:person.removedByProvisioning", { date: when(removedByProvisioning, language) })}
        />
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-xl font-semibold" data-testid="person-name">
          {person.fullName}
        </h2>
        <StatusBadge status={person.status} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title={t("admin:person.profile")} testId="person-profile">
          {editing ? (
            <ProfileForm person={person} onDone={() => setEditing(false)} />
          ) : (
            <>
              <Facts
                rows={[
                  [t("admin:person.fields.username"), person.username],
                  [t("admin:person.fields.email"), person.email ?? notOnFile],
                  [t("admin:person.fields.studentId"), person.studentId ?? notOnFile],
                  [t("admin:person.fields.employeeId"), person.employeeId ?? notOnFile],
                  [t("admin:person.fields.taxId"), person.hasTaxId ? t("admin:person.taxIdKept") : notOnFile],
                  [
                    t("admin:person.fields.google"),
                    person.googleSubjects.length ? t("admin:person.linked") : t("admin:person.notLinked"),
                  ],
                  ...(person.provisioning.managed
                    ? [
                        [t("admin:person.fields.externalId"), person.provisioning.externalId ?? notOnFile] as [
                          string,
                          string,
                        ],
                      ]
                    : []),
                ]}
              />
              {person.provisioning.managed ? (
                <p className="text-sm text-muted-foreground" data-testid="person-managed">
                  {t("admin:person.managedByHr")}
                </p>
              ) : null}
              {canEdit && !person.provisioning.managed && !person.erasedAt ? (
                <Button variant="outline" size="sm" className="self-start" onClick={() => setEditing(true)}>
                  {t("admin:person.edit")}
                </Button>
              ) : null}
            </>
          )}
        </Section>
        {person.erasedAt ? null : <PersonActions person={person} />}
      </div>
      <PersonRecords person={person} />
      <PersonUnitRoles person={person} />
      <PersonHistory person={person} />
      <ErasureSection person={person} />
    </div>
  );
}

/** What helpdesk and admins do to a person: none of it is offered for an erased person's stub. */
function PersonActions({ person }: { person: PersonDetail }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const canChangeStatus = useCan("people.status");
  const unlock = usePersonAction(person, "unlock");
  const endSessions = usePersonAction(person, "sessions/end");
  const setStatus = usePersonAction<"active" | "disabled">(person, "status", (status) => ({ status }));
  const locked = person.throttle.failures > 0;
  const removedByProvisioning = person.provisioning.removedAt;
  return (
    <>
      <Section title={t("admin:person.signIn")} testId="person-sign-in">
        <p className="text-sm" data-testid="throttle-state">
          {locked ? t("admin:person.locked", { count: person.throttle.failures }) : t("admin:person.notLocked")}
        </p>
        <div className="flex flex-wrap gap-2">
          <ConfirmButton
            disabled={!locked}
            question={t("admin:person.unlockQuestion", { name: person.fullName })}
            consequence={t("admin:person.unlockConsequence")}
            confirmLabel={t("admin:person.unlock")}
            onConfirm={() => unlock.run()}
            loading={unlock.pending}
          >
            {t("admin:person.unlock")}
          </ConfirmButton>
          {canChangeStatus && !removedByProvisioning ? (
            <ConfirmButton
              question={t(person.status === "active" ? "admin:person.disableQuestion" : "admin:person.enableQuestion", {
                name: person.fullName,
              })}
              consequence={t(
                person.status === "active" ? "admin:person.disableConsequence" : "admin:person.enableConsequence",
              )}
              confirmLabel={t(person.status === "active" ? "admin:person.disable" : "admin:person.enable")}
              onConfirm={() => setStatus.run(person.status === "active" ? "disabled" : "active")}
              loading={setStatus.pending}
            >
              {t(person.status === "active" ? "admin:person.disable" : "admin:person.enable")}
            </ConfirmButton>
          ) : null}
        </div>
      </Section>
      <Section title={t("admin:person.sessions", { count: person.sessions.length })} testId="person-sessions">
        <ul className="flex flex-col gap-1 text-sm" data-testid="session-list">
          {person.sessions.map((session) => (
            <li key={session.id}>
              {t(`admin:methods.${session.method}`)} · {when(session.startedAt, language)} · {session.address}
            </li>
          ))}
        </ul>
        <ConfirmButton
          className="self-start"
          disabled={person.sessions.length === 0}
          question={t("admin:person.endQuestion", { name: person.fullName })}
          consequence={t("admin:person.endConsequence", { count: person.sessions.length })}
          confirmLabel={t("admin:person.endSessions")}
          onConfirm={() => endSessions.run()}
          loading={endSessions.pending}
        >
          {t("admin:person.endSessions")}
        </ConfirmButton>
      </Section>
      <AccessSection person={person} />
      <RecoverySection person={person} />
      <PersonWifiSection person={person} />
    </>
  );
}

/**
 * The person screen shows itself with the person's Wi-Fi devices, asked beside the person rather than after them: the
 * Wi-Fi section arriving later pushed the records, history and erasure below it down by its height (hundreds of
 * pixels at 390 px with a few devices), under a tap meant for them. A Wi-Fi answer later than `answerWait` finds
 * its section framed with a placeholder instead. An erased person's stub has no Wi-Fi section and waits for nothing.
 */
export function PersonScreen() {
  const { t } = useTranslation("admin");
  const { id = "" } = useParams();
  const person = usePerson(id);
  // The Wi-Fi is asked beside the person, not after them: asking after would add a round trip before every person
  // screen shows. So a first open of an erased person's stub (409) or of an unknown id (404) asks once in vain,
  // before the person's answer says so; that answer shows nowhere (the stub has no Wi-Fi section, the unknown id no
  // screen). Once the person's answer says so, it is not asked again: each console action reads every answer again.
  const wifiAsked = !person.data?.erasedAt && !(person.isError && !person.data);
  const wifi = usePersonWifi(id, { enabled: wifiAsked });
  // The person's role changed (another admin's doing): a Wi-Fi refused because they outranked the operator is asked again.
  useRoleRefusalsForgotten(person.data?.roles, personWifiKey(id));
  // A question not asked stays pending for ever: the wait counts only one that is out.
  const { waiting } = useAnswersFirst(id, Boolean(person.data && !person.data.erasedAt), wifiAsked && wifi.isPending);
  if (person.isPending) return <ScreenLoading className="h-64 w-full" />;
  if (!person.data) return <Alert variant="destructive" title={t("admin:person.notFound")} />;
  return (
    <>
      {waiting ? <ScreenLoading className="h-64 w-full" testId="person-waiting" /> : null}
      <Held waiting={waiting}>
        <PersonView person={person.data} />
      </Held>
    </>
  );
}
