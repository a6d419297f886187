import { type AdminApplicationDetail, type CasServiceView, casAttributeNames } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { ReadFailed, Section, useCan } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useCasServices, useRemoveCasService, useSetCasService } from "../api/applications-api.ts";
import { readReleaseFields, releasedNames } from "./cas-release-fields.ts";

function AddCasServiceForm({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation("admin-apps");
  const describeError = useErrorMessage();
  const save = useSetCasService(applicationId);
  const empty = { url: "", prefix: false, singleLogout: false, proxy: false, attributes: "", renames: "" };
  const [service, setService] = useState(empty);
  const [fieldProblem, setFieldProblem] = useState<string>();
  const ids = {
    url: useId(),
    prefix: useId(),
    singleLogout: useId(),
    proxy: useId(),
    attributes: useId(),
    renames: useId(),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const release = readReleaseFields(service.attributes, service.renames);
    if ("problem" in release) {
      const known = casAttributeNames.join(", ");
      setFieldProblem(t(`admin-apps:cas.${release.problem}`, { word: release.word, known }));
      return;
    }
    setFieldProblem(undefined);
    save.mutate(
      { ...service, ...release, url: service.url.trim() },
      {
        onSuccess: () => {
          notify("success", t("admin-apps:cas.added"));
          setService(empty);
        },
      },
    );
  };
  const flag = (name: "prefix" | "singleLogout" | "proxy") => (
    <label className="flex items-center gap-2 text-sm" htmlFor={ids[name]}>
      <input
        id={ids[name]}
        type="checkbox"
        className="size-4 accent-primary"
        checked={service[name]}
        onChange={(event) => setService({ ...service, [name]: event.target.checked })}
        data-testid={`cas-${name}`}
      />
      {t(`admin-apps:cas.${name}`)}
    </label>
  );
  // The release policy as the CLI's --attributes and --rename write it; a hint under each says what empty means.
  const textField = (name: "attributes" | "renames", placeholder: string) => (
    <div className="flex flex-col gap-1">
      <Label htmlFor={ids[name]}>{t(`admin-apps:cas.${name}Field`)}</Label>
      <Input
        id={ids[name]}
        value={service[name]}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${ids[name]}-hint`}
        onChange={(event) => setService({ ...service, [name]: event.target.value })}
        data-testid={`cas-${name}`}
      />
      <p id={`${ids[name]}-hint`} className="text-xs text-muted-foreground">
        {t(`admin-apps:cas.${name}Hint`)}
      </p>
    </div>
  );
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} aria-label={t("admin-apps:cas.add")}>
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.url}>{t("admin-apps:cas.url")}</Label>
        <Input
          id={ids.url}
          value={service.url}
          required
          inputMode="url"
          placeholder="https://moodle.kpi.ua/login/index.php"
          onChange={(event) => setService({ ...service, url: event.target.value })}
          data-testid="cas-url"
        />
      </div>
      {flag("prefix")}
      {flag("singleLogout")}
      {flag("proxy")}
      {textField("attributes", "uid, displayName, mail")}
      {textField("renames", "mail=email uid=username")}
      {fieldProblem || save.isError ? (
        <p role="alert" className="text-sm text-destructive-strong">
          {fieldProblem ?? describeError(save.error, "admin:failed").message}
        </p>
      ) : null}
      <Button type="submit" variant="outline" className="self-start" loading={save.isPending} data-testid="cas-add">
        {t("admin-apps:cas.add")}
      </Button>
    </form>
  );
}

function ServiceItem({ applicationId, service }: { applicationId: string; service: CasServiceView }) {
  const { t } = useTranslation(["admin-apps", "admin"]);
  const describeError = useErrorMessage();
  const remove = useRemoveCasService(applicationId);
  const allowed = useCan("apps.manage");
  const flags = [
    t(`admin-apps:cas.match.${service.match}`),
    service.singleLogout ? t("admin-apps:cas.singleLogout") : undefined,
    service.proxy ? t("admin-apps:cas.proxy") : undefined,
  ].filter(Boolean);
  return (
    <li className="flex flex-col gap-1 p-3" data-testid="cas-service">
      <span className="font-medium break-all text-foreground">{service.url}</span>
      <span className="text-sm text-muted-foreground">{flags.join(" · ")}</span>
      <span className="text-sm break-words text-muted-foreground">
        {t("admin-apps:cas.attributes", { names: releasedNames(service) })}
      </span>
      {allowed ? (
        <ConfirmButton
          question={t("admin-apps:cas.removeQuestion", { url: service.url })}
          consequence={t("admin-apps:cas.removeConsequence")}
          confirmLabel={t("admin-apps:cas.remove")}
          onConfirm={() =>
            remove.mutate(
              { url: service.url },
              {
                onSuccess: () => notify("success", t("admin-apps:cas.removed")),
                onError: (error) => notify("error", describeError(error, "admin:failed").message),
              },
            )
          }
        >
          {t("admin-apps:cas.remove")}
        </ConfirmButton>
      ) : null}
    </li>
  );
}

/** The application's CAS services: the addresses its CAS clients send as `service`, and the CAS server URL. */
export function CasSection({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation("admin-apps");
  const services = useCasServices(application.id, { asked: true });
  const allowed = useCan("apps.manage");
  return (
    <Section title={t("admin-apps:cas.title")} testId="application-cas" busy={services.isPending}>
      <p className="text-sm text-muted-foreground">{t("admin-apps:cas.explain")}</p>
      {/*
       * An answer later than the screen's wait (answers-first.tsx) finds the server URL and "none" lines' places held:
       * sized as they stand on a phone, the address under its label beside the copy button, the sentence on two lines.
       */}
      {services.isPending ? (
        <div className="flex flex-col gap-3" data-testid="cas-loading">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-10 w-2/3" />
        </div>
      ) : null}
      {services.isError && !services.data ? (
        <ReadFailed what={t("admin-apps:cas.loadFailed")} error={services.error} testId="cas-failed" />
      ) : null}
      {services.data ? (
        <>
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span>{t("admin-apps:cas.serverUrl")}</span>
            <code className="break-all" data-testid="cas-server-url">
              {services.data.serverUrl}
            </code>
            <CopyButton text={services.data.serverUrl} />
          </p>
          {services.data.services.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("admin-apps:cas.none")}</p>
          ) : (
            <ul
              className="divide-y divide-border rounded-lg border border-border"
              aria-label={t("admin-apps:cas.title")}
            >
              {services.data.services.map((service) => (
                <ServiceItem key={service.url} applicationId={application.id} service={service} />
              ))}
            </ul>
          )}
        </>
      ) : null}
      {allowed ? <AddCasServiceForm applicationId={application.id} /> : null}
    </Section>
  );
}
