import type { ServiceStatus } from "@kpi-id/contracts";
import { RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { WifiFiguresSection } from "@/features/console-people/index.ts";
import {
  CertificateNotice,
  Facts,
  RevocationNotice,
  Section,
  useServiceStatus,
  useServiceWords,
} from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";

function Health({ health }: { health: ServiceStatus["health"] }) {
  const { t } = useTranslation("admin-service");
  const tone = health.ready ? "bg-primary/10 text-primary" : "bg-destructive/10 text-destructive-strong";
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="service-health">
      <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>
        {health.ready ? t("admin-service:service.ready") : t("admin-service:service.notReady")}
      </span>
      <span>{health.database ? t("admin-service:service.databaseUp") : t("admin-service:service.databaseDown")}</span>
    </span>
  );
}

function StateFacts({ service }: { service: ServiceStatus }) {
  const { t } = useTranslation("admin-service");
  const words = useServiceWords();
  const database =
    service.database.kind === "postgres"
      ? t("admin-service:service.postgres", { version: service.database.serverVersion ?? "?" })
      : t("admin-service:service.pglite", { version: service.database.serverVersion ?? "?" });
  return (
    <Facts
      rows={[
        [
          t("admin-service:service.version"),
          <span key="v" data-testid="service-version">
            {service.version}
          </span>,
        ],
        [
          t("admin-service:service.database"),
          <span key="d" data-testid="service-database">
            {database}
          </span>,
        ],
        [t("admin-service:service.health"), <Health key="h" health={service.health} />],
        [t("admin-service:service.started"), words.date(service.startedAt)],
        [t("admin-service:service.uptime"), words.duration(service.uptimeSeconds)],
      ]}
    />
  );
}

function FigureFacts({ figures }: { figures: ServiceStatus["figures"] }) {
  const { t } = useTranslation("admin-service");
  const { t: tAdmin } = useTranslation("admin");
  const words = useServiceWords();
  const n = words.number;
  const { requests } = figures;
  const latency =
    requests.averageSeconds === null
      ? t("admin-service:figures.noRequests")
      : t("admin-service:figures.latencyValue", {
          average: words.latency(requests.averageSeconds),
          p95:
            requests.p95Seconds === null ? t("admin-service:figures.notMeasured") : words.latency(requests.p95Seconds),
        });
  const byMethod = figures.signInsByMethod
    .map((entry) =>
      t("admin-service:figures.byMethod", {
        method: tAdmin(`admin:methods.${entry.method}`, { defaultValue: entry.method }),
        success: n(entry.success),
        failure: n(entry.failure),
      }),
    )
    .join("; ");
  const rows: [string, string][] = [
    [
      t("admin-service:figures.signIns"),
      t("admin-service:figures.successFailure", {
        success: n(figures.signIns.success),
        failure: n(figures.signIns.failure),
      }),
    ],
    ...(byMethod ? [[t("admin-service:figures.signInsByMethod"), byMethod] as [string, string]] : []),
    [t("admin-service:figures.throttled"), n(figures.throttledAttempts)],
    [
      t("admin-service:figures.tickets"),
      t("admin-service:figures.successFailure", {
        success: n(figures.ticketExchanges.success),
        failure: n(figures.ticketExchanges.failure),
      }),
    ],
    [
      t("admin-service:figures.requests"),
      t("admin-service:figures.requestsValue", { total: n(requests.total), errors: n(requests.serverErrors) }),
    ],
    [t("admin-service:figures.latency"), latency],
    [
      t("admin-service:figures.pool"),
      t("admin-service:figures.poolValue", {
        total: n(figures.pool.total),
        idle: n(figures.pool.idle),
        waiting: n(figures.pool.waiting),
      }),
    ],
    [
      t("admin-service:figures.diiaPending"),
      figures.diiaPending === null ? t("admin-service:figures.notMeasured") : n(figures.diiaPending),
    ],
    [
      t("admin-service:figures.memory"),
      figures.memoryBytes === null ? t("admin-service:figures.notMeasured") : words.bytes(figures.memoryBytes),
    ],
    [
      t("admin-service:figures.eventLoop"),
      figures.eventLoopLagSeconds === null
        ? t("admin-service:figures.notMeasured")
        : words.latency(figures.eventLoopLagSeconds),
    ],
  ];
  return <Facts rows={rows} />;
}

/** Service: version, database, health and uptime, and the figures /metrics serves, in words; refreshed on demand. */
export function ServiceScreen() {
  const { t } = useTranslation("admin-service");
  const describeError = useErrorMessage();
  const words = useServiceWords();
  const service = useServiceStatus();
  return (
    <section aria-labelledby="service-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="service-heading" className="text-lg font-semibold">
          {t("admin-service:service.title")}
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          {service.dataUpdatedAt ? (
            <span className="text-sm text-muted-foreground" data-testid="service-updated">
              {t("admin-service:service.updated", { time: words.time(new Date(service.dataUpdatedAt)) })}
            </span>
          ) : null}
          <Button
            variant="outline"
            size="sm"
            onClick={() => service.refetch()}
            loading={service.isFetching}
            icon={<RefreshCw aria-hidden />}
            data-testid="service-refresh"
          >
            {t("admin-service:service.refresh")}
          </Button>
        </div>
      </div>
      {service.isError ? (
        <Alert variant="destructive" title={t("admin-service:loadFailed")}>
          {describeError(service.error, "admin:failed").message}
        </Alert>
      ) : null}
      {service.isPending ? <p className="text-sm text-muted-foreground">{t("admin:loading")}</p> : null}
      {service.data ? (
        <>
          <CertificateNotice certificates={service.data.certificates} />
          <RevocationNotice lists={service.data.revocationLists} />
          <Section title={t("admin-service:service.state")} testId="service-state">
            <StateFacts service={service.data} />
          </Section>
          <Section title={t("admin-service:figures.title")} testId="service-figures">
            <p className="text-sm text-muted-foreground">{t("admin-service:figures.about")}</p>
            <FigureFacts figures={service.data.figures} />
          </Section>
          <WifiFiguresSection />
        </>
      ) : null}
    </section>
  );
}
