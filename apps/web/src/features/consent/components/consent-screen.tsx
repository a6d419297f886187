import type { ApplicationPublisher, ConsentOutcome } from "@kpi-id/contracts";
import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { RequestedData, useScopeWords } from "@/components/requested-data.tsx";
import { ReviewMark } from "@/components/review-mark.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useAnswerConsent } from "../api/answer-consent.ts";
import { useInteraction } from "../api/get-interaction.ts";
import { useAnswerSamlConsent, useSamlConsent } from "../api/saml-consent.ts";
import { useAnswerTicketConsent, useTicketConsent } from "../api/ticket-consent.ts";
import { NoAccess } from "./no-access.tsx";
import { Publisher } from "./publisher.tsx";

/** Whose request the screen answers: an OpenID Connect interaction, a SAML service provider's request or a ticket link. */
export type ConsentRequest =
  | { kind: "oidc"; uid: string }
  | { kind: "saml"; id: string }
  | { kind: "ticket"; id: string };

// The SAML attributes KPI ID releases; anything else is shown by its name.
const knownAttributes = new Set([
  "identifier",
  "eduPersonPrincipalName",
  "subject-id",
  "pairwise-id",
  "displayName",
  "givenName",
  "sn",
  "mail",
  "eduPersonAffiliation",
  "eduPersonScopedAffiliation",
  "schacHomeOrganization",
  "eduPersonAssurance",
]);
// The codes that mean the request is gone (expired or already answered).
const expiredCodes = new Set(["oidc.interaction_not_found", "saml.request_not_found", "consent.request_not_found"]);

interface Asked {
  application: { title: string; description: string };
  person: { name: string };
  /** Whether the university reviewed the application; no mark when the protocol does not say. */
  reviewed?: boolean;
  /** A community application's pages and owners. */
  publisher?: ApplicationPublisher;
}

function ConsentView<T extends Asked>(props: {
  details: UseQueryResult<T>;
  items: (details: T) => string[];
  answer: UseMutationResult<ConsentOutcome, Error, boolean>;
}) {
  const { t } = useTranslation("consent");
  const { details, answer } = props;
  const describeError = useErrorMessage();

  if (details.isPending) return <PageSpinner label={t("common:loading")} />;
  if (details.isError) {
    const { code, message } = describeError(details.error, "consent:error.generic");
    return (
      <div className="mx-auto w-full max-w-[450px] px-4 py-8 sm:py-14">
        <Alert variant="destructive" title={t("error.title")} testId="consent-error">
          {code && expiredCodes.has(code) ? t("error.expired") : message}
        </Alert>
      </div>
    );
  }
  const { application, person } = details.data;
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-col gap-6 px-4 py-8 sm:py-14">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">
          {t("title", { application: application.title })}
        </h1>
        {application.description ? (
          <p className="break-words text-muted-foreground">{application.description}</p>
        ) : null}
        <ReviewMark reviewed={details.data.reviewed} />
      </div>
      <div className="space-y-4 rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6">
        <p className="text-foreground">{t("signedInAs", { name: person.name })}</p>
        <p className="font-medium text-foreground">{t("requests", { application: application.title })}</p>
        <RequestedData items={props.items(details.data)} />
        {details.data.publisher ? <Publisher publisher={details.data.publisher} /> : null}
        {answer.isError ? (
          <Alert variant="destructive" title={t("error.title")} testId="consent-answer-error">
            {describeError(answer.error, "consent:error.generic").message}
          </Alert>
        ) : null}
        <div className="flex flex-col gap-3 pt-2 sm:flex-row-reverse">
          <Button
            className="sm:flex-1"
            loading={answer.isPending && answer.variables === true}
            disabled={answer.isPending || answer.isSuccess}
            onClick={() => answer.mutate(true)}
          >
            {t("allow")}
          </Button>
          <Button
            className="sm:flex-1"
            variant="outline"
            loading={answer.isPending && answer.variables === false}
            disabled={answer.isPending || answer.isSuccess}
            onClick={() => answer.mutate(false)}
          >
            {t("deny")}
          </Button>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">{t("note")}</p>
    </div>
  );
}

function OidcConsent({ uid }: { uid: string }) {
  const scopeWords = useScopeWords();
  const details = useInteraction(uid);
  const answer = useAnswerConsent(uid);
  if (details.data && !details.data.access) return <NoAccess details={details.data} answer={answer} />;
  return <ConsentView details={details} answer={answer} items={({ scopes }) => scopeWords(scopes)} />;
}

function SamlConsent({ id }: { id: string }) {
  const { t } = useTranslation("consent");
  return (
    <ConsentView
      details={useSamlConsent(id)}
      answer={useAnswerSamlConsent(id)}
      // The pseudonymous NameID always goes; the attributes are the SP's release policy.
      items={({ attributes }) =>
        ["identifier", ...attributes].map((name) => (knownAttributes.has(name) ? t(`attributes.${name}`) : name))
      }
    />
  );
}

function TicketConsent({ id }: { id: string }) {
  const { t } = useTranslation("consent");
  return (
    <ConsentView
      details={useTicketConsent(id)}
      answer={useAnswerTicketConsent(id)}
      items={({ data }) => data.map((datum) => t(`ticketData.${datum}`))}
    />
  );
}

/** An application or service provider that is not first-party asks the person before it learns who they are. */
export function ConsentScreen({ request }: { request: ConsentRequest }) {
  if (request.kind === "ticket") return <TicketConsent id={request.id} />;
  return request.kind === "oidc" ? <OidcConsent uid={request.uid} /> : <SamlConsent id={request.id} />;
}
