import type { ReviewDecision, ReviewQueue } from "@kpi-id/contracts";
import { Check, X } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FieldChanges } from "@/components/field-changes.tsx";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Card } from "@/components/ui/card.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useAppTitle, useCan, useConsoleOperator } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useDecideReview, useReviewQueue } from "../api/reviews-api.ts";
import { RejectForm } from "./review-reject-form.tsx";
import { UnitApprovalNote } from "./review-unit-approval.tsx";
import { UnitsDecidingReviews } from "./units-deciding-reviews.tsx";

type ReviewRequest = ReviewQueue["reviews"][number];
type Described = { text: string; lang: "uk" | "en" };

/**
 * The description in the console's language first (the other one when that is empty), then the other one when the
 * owner wrote a different text in it.
 */
function descriptionsFor(review: ReviewRequest, language: "uk" | "en"): [Described?, Described?] {
  const uk: Described = { text: review.description, lang: "uk" };
  const en: Described = { text: review.descriptionEn, lang: "en" };
  const [own, other] = language === "en" ? [en, uk] : [uk, en];
  if (!own.text) return other.text ? [other] : [];
  return other.text && other.text !== own.text ? [own, other] : [own];
}

/** A term and its value; lists of addresses one per line, long ones broken anywhere (phones). */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm font-medium text-muted-foreground">{term}</dt>
      <dd className="text-sm break-words whitespace-pre-line text-foreground">{children}</dd>
    </div>
  );
}

function Addresses({ urls }: { urls: string[] }) {
  const { t } = useTranslation("admin-reviews");
  if (urls.length === 0) return <span className="text-muted-foreground">{t("admin-reviews:none")}</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {urls.map((url) => (
        <li key={url}>
          <code className="text-xs break-all">{url}</code>
        </li>
      ))}
    </ul>
  );
}

/** One request: what the application is, what it asks for and why, and the decision. */
function ReviewCard({ review }: { review: ReviewRequest }) {
  const { t } = useTranslation("admin-reviews");
  const language = useLanguage();
  const appTitle = useAppTitle();
  const describeError = useErrorMessage();
  const canDecide = useCan("apps.review");
  // A unit admin's approval is a first one unless the operators let their unit decide (issue 79); one they gave
  // already waits for central IT.
  const central = useConsoleOperator().roles.includes("admin");
  const firstStep = !central && !review.unitFinal;
  const canApprove = canDecide && (central || !review.unitApproval);
  const decide = useDecideReview();
  const [rejecting, setRejecting] = useState(false);
  const title = appTitle(review);
  const otherTitle = language === "en" ? review.title : review.titleEn;
  const [description, otherDescription] = descriptionsFor(review, language);
  const headingId = useId();
  const requested = new Date(review.requestedAt).toLocaleString(language === "uk" ? "uk-UA" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
  const onError = (error: unknown) => notify("error", describeError(error, "admin:failed").message);
  const change = review.kind === "change";
  // The card leaves the queue with the reload a decision starts, and TanStack Query calls a mutate callback only while
  // its caller is mounted: the toast once went missing when the queue came back before the rest of the console. The
  // promise outlives the card.
  const decideAndSay = (
    decision: ReviewDecision,
    done: "approved" | "rejected" | "changeApproved" | "changeRejected" | "unitApproved",
  ) =>
    decide
      .mutateAsync({ applicationId: review.applicationId, decision })
      .then(() => notify("success", t(`admin-reviews:${done}`, { app: title })), onError);
  const approve = () =>
    decideAndSay(
      { decision: "approved", requestId: review.requestId },
      firstStep ? "unitApproved" : change ? "changeApproved" : "approved",
    );
  const reject = (reason: string) =>
    decideAndSay({ decision: "rejected", requestId: review.requestId, reason }, change ? "changeRejected" : "rejected");
  return (
    <li>
      <Card className="p-4 sm:p-5">
        <article aria-labelledby={headingId} className="flex flex-col gap-3" data-testid="review-request">
          <div className="flex flex-col gap-1">
            <h3 id={headingId} className="text-base font-semibold break-words text-foreground">
              {title}
            </h3>
            {otherTitle && otherTitle !== title ? (
              // Both names are checked: an application must not pass itself off as a university service in either.
              <p className="text-sm break-words text-foreground" data-testid="review-other-title">
                {t("admin-reviews:otherTitle")} <span lang={language === "en" ? "uk" : "en"}>{otherTitle}</span>
              </p>
            ) : null}
            <p className="text-sm text-muted-foreground">
              {t("admin-reviews:requested", { date: requested })}
              {" · "}
              <Link
                className="font-medium text-primary underline-offset-4 hover:underline"
                to={localizePath(language, `/admin/applications/${review.applicationId}`)}
              >
                {t("admin-reviews:openApplication")}
              </Link>
            </p>
          </div>
          {change ? (
            <div className="flex flex-col gap-3" data-testid="review-change">
              <p className="text-sm font-medium text-foreground">{t("admin-reviews:kindChange")}</p>
              <p className="text-sm text-muted-foreground">{t("admin-reviews:changeIntro")}</p>
              <FieldChanges
                changes={review.changes}
                label={(field) => t(`admin-reviews:fields.${field}`)}
                words={{
                  before: t("admin-reviews:changeBefore"),
                  after: t("admin-reviews:changeAfter"),
                  none: t("admin-reviews:none"),
                }}
              />
            </div>
          ) : null}
          {description && !change ? (
            <p className="text-sm break-words text-foreground" lang={description.lang}>
              {description.text}
            </p>
          ) : null}
          {otherDescription && !change ? (
            // Like the names, both descriptions are read: people see the one in their language.
            <p className="text-sm break-words text-foreground" data-testid="review-other-description">
              {t("admin-reviews:otherDescription")} <span lang={otherDescription.lang}>{otherDescription.text}</span>
            </p>
          ) : null}
          {change ? (
            <dl>
              <Fact term={t("admin-reviews:owners")}>{review.owners.join(", ") || t("admin-reviews:none")}</Fact>
            </dl>
          ) : (
            <dl className="grid gap-3 sm:grid-cols-2">
              <Fact term={t("admin-reviews:purpose")}>{review.purpose}</Fact>
              <Fact term={t("admin-reviews:dataNeeded")}>{review.dataNeeded}</Fact>
              <Fact term={t("admin-reviews:scopes")}>
                {review.scopes.length ? (
                  <span className="flex flex-wrap gap-1">
                    {review.scopes.map((scope) => (
                      <code key={scope} className="rounded bg-muted px-1.5 py-0.5 text-xs">
                        {scope}
                      </code>
                    ))}
                  </span>
                ) : (
                  t("admin-reviews:none")
                )}
              </Fact>
              <Fact term={t("admin-reviews:owners")}>{review.owners.join(", ") || t("admin-reviews:none")}</Fact>
              <Fact term={t("admin-reviews:callbackUrls")}>
                <Addresses urls={review.callbackUrls} />
              </Fact>
              <Fact term={t("admin-reviews:redirectUris")}>
                <Addresses urls={review.redirectUris} />
              </Fact>
              <Fact term={t("admin-reviews:homePage")}>
                <Addresses urls={review.homePageUrl ? [review.homePageUrl] : []} />
              </Fact>
              <Fact term={t("admin-reviews:privacyPolicy")}>
                <Addresses urls={review.privacyPolicyUrl ? [review.privacyPolicyUrl] : []} />
              </Fact>
            </dl>
          )}
          {review.unitApproval ? <UnitApprovalNote approval={review.unitApproval} central={central} /> : null}
          {canDecide && !rejecting ? (
            <div className="flex flex-wrap gap-2">
              {canApprove ? (
                <ConfirmButton
                  variant="default"
                  size="default"
                  icon={<Check aria-hidden />}
                  question={t("admin-reviews:approveQuestion", { app: title })}
                  consequence={t(
                    `admin-reviews:${firstStep ? "approveFirstConsequence" : change ? "approveChangeConsequence" : "approveConsequence"}`,
                  )}
                  confirmLabel={t("admin-reviews:approve")}
                  onConfirm={approve}
                  loading={decide.isPending}
                  data-testid="review-approve"
                >
                  {t("admin-reviews:approve")}
                </ConfirmButton>
              ) : null}
              <Button
                variant="outline"
                icon={<X aria-hidden />}
                onClick={() => setRejecting(true)}
                disabled={decide.isPending}
                data-testid="review-reject"
              >
                {t("admin-reviews:reject")}
              </Button>
            </div>
          ) : null}
          {canDecide && rejecting ? (
            <RejectForm pending={decide.isPending} onReject={reject} onCancel={() => setRejecting(false)} />
          ) : null}
        </article>
      </Card>
    </li>
  );
}

/** /{lang}/admin/reviews: applications registered on the developers' page that ask to go live. */
export function ReviewQueueScreen() {
  const { t } = useTranslation(["admin-reviews", "admin"]);
  const describeError = useErrorMessage();
  const queue = useReviewQueue();
  return (
    <section aria-labelledby="reviews-heading" className="flex flex-col gap-4" data-testid="review-queue">
      <div className="flex flex-col gap-1">
        <h2 id="reviews-heading" className="text-lg font-semibold">
          {t("admin-reviews:title")}
        </h2>
        <p className="max-w-3xl text-sm text-muted-foreground">{t("admin-reviews:intro")}</p>
      </div>
      {queue.isPending ? <Skeleton className="h-40 w-full" /> : null}
      {queue.isError ? (
        <Alert variant="destructive" title={t("admin-reviews:loadFailed")}>
          {describeError(queue.error, "admin:failed").message}
        </Alert>
      ) : null}
      {queue.data ? (
        <p className="text-sm font-medium text-foreground" data-testid="review-count" aria-live="polite">
          {queue.data.length === 0 ? t("admin-reviews:empty") : t("admin-reviews:count", { count: queue.data.length })}
        </p>
      ) : null}
      {queue.data?.length ? (
        <ul className="flex flex-col gap-4" aria-labelledby="reviews-heading">
          {queue.data.map((review) => (
            <ReviewCard key={review.requestId} review={review} />
          ))}
        </ul>
      ) : null}
      <UnitsDecidingReviews />
    </section>
  );
}
