import { claimsByScope, type DeveloperClientType, developerScopes } from "@kpi-id/contracts";
import { useTranslation } from "react-i18next";

type Scope = (typeof developerScopes)[number];

/** The ticket exchange's `data`, whatever the scopes say (TAX_ID only when the operators allow it). */
const ticketFields =
  "USER_ID, NAME, STUDENT_ID, EMPLOYEE_ID, AUTH_METHOD, AUTH_AMR, AUTH_ACR, TRACE_ID, TIME_STAMP, AFFILIATIONS, " +
  "STUDENT_STATUS, STUDENT_UNIT, STUDENT_FACULTY, EMPLOYEE_STATUS, EMPLOYEE_UNIT, EMPLOYEE_FACULTY";

/**
 * The data an application asks for (issue 60): the scopes apply to OpenID Connect, each listed with the claims it
 * adds; what the ticket exchange always carries is said apart, for a web application that may use it.
 */
export function ScopesField({
  scopes,
  clientType,
  onChange,
}: {
  scopes: readonly string[];
  clientType: DeveloperClientType;
  onChange: (scopes: Scope[]) => void;
}) {
  const { t } = useTranslation("developers");
  return (
    <fieldset className="space-y-2" aria-describedby="scopes-hint">
      <legend className="text-sm font-medium text-foreground">{t("form.scopes")}</legend>
      <p id="scopes-hint" className="text-sm text-muted-foreground">
        {t("form.scopesHint")}
      </p>
      <ul className="flex flex-col gap-1">
        {developerScopes.map((scope) => (
          <li key={scope}>
            <label className="flex min-h-11 items-start gap-2 py-1 text-sm text-foreground">
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary"
                checked={scopes.includes(scope)}
                disabled={scope === "openid"}
                data-testid={`scope-${scope}`}
                onChange={(event) =>
                  onChange(
                    (event.target.checked ? [...scopes, scope] : scopes.filter((each) => each !== scope)) as Scope[],
                  )
                }
              />
              <span>
                <code>{scope}</code> — {t(`scopes.${scope}`)}
                <span className="block text-muted-foreground">
                  {claimsByScope[scope].length > 0 ? (
                    <>
                      {t("form.claims")} <code className="break-words">{claimsByScope[scope].join(", ")}</code>
                    </>
                  ) : (
                    t("form.noClaims")
                  )}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {clientType === "web" ? (
        <p className="text-sm text-muted-foreground" data-testid="ticket-data-note">
          {t("form.ticketData")} <code className="break-words">{ticketFields}</code>
        </p>
      ) : null}
    </fieldset>
  );
}
