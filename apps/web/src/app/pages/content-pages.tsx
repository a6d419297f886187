import type { ReactElement, ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ContentPage } from "@/components/content-page.tsx";
import { SettingsUnavailable } from "@/components/settings-unavailable.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useSettings } from "@/lib/settings.ts";
import { useLanguage } from "@/lib/use-language.ts";

const linkClass = "font-medium text-primary underline underline-offset-4 hover:no-underline";

/** An external link whose text comes from the translation (Trans passes it as children). */
function ExternalLink({ href, children }: { href: string | undefined; children?: ReactNode }) {
  // Without the settings there is no address: the words stay, as plain text, never a dead link.
  if (!href) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={linkClass}>
      {children}
    </a>
  );
}

/** The integration manual, its words from the translation. */
function ManualLink({ children }: { children?: ReactNode }) {
  return (
    <a href="/integration_manual.pdf" className={linkClass}>
      {children}
    </a>
  );
}

function MailLink({ email, children }: { email: string; children?: ReactNode }) {
  return (
    <a href={`mailto:${email}`} className={linkClass}>
      {children}
    </a>
  );
}

/** Numbered sections of a legal or help text, each a heading and a paragraph. */
function Sections({
  prefix,
  count,
  components,
}: {
  prefix: string;
  count: number;
  components?: Record<string, ReactElement>;
}) {
  const { t } = useTranslation("pages");
  return (
    <div className="space-y-6 rounded-xl border border-border bg-white p-5 leading-relaxed shadow-sm sm:p-8">
      {Array.from({ length: count }, (_, index) => {
        const key = `${prefix}.sections.${index + 1}`;
        return (
          <section key={key} className="space-y-2">
            <h2 className="text-lg font-semibold text-foreground">{t(`${key}.title`)}</h2>
            <p className="text-foreground/85">
              <Trans t={t} i18nKey={`${key}.body`} components={components} />
            </p>
          </section>
        );
      })}
    </div>
  );
}

export function FaqRoute() {
  const { t } = useTranslation("pages");
  const settings = useSettings();
  const language = useLanguage();
  const bots = {
    employeesBot: <ExternalLink href={settings.data?.supportBotEmployeesUrl} />,
    studentsBot: <ExternalLink href={settings.data?.supportBotStudentsUrl} />,
    developersPage: <Link className={linkClass} to={localizePath(language, "/developers")} />,
    manual: <ManualLink />,
  };
  return (
    <ContentPage title={t("pages:faq.title")}>
      {settings.isError ? <SettingsUnavailable what="contacts" /> : null}
      <Sections prefix="pages:faq" count={5} components={bots} />
    </ContentPage>
  );
}

export function PrivacyPolicyRoute() {
  const { t } = useTranslation("pages");
  const settings = useSettings();
  const email = settings.data?.supportEmail;
  return (
    <ContentPage title={t("pages:privacy.title")}>
      <Sections prefix="pages:privacy" count={5} />
      {email ? (
        <p className="text-foreground/85">
          <Trans
            t={t}
            i18nKey="pages:privacy.contact"
            values={{ email }}
            components={{ mail: <MailLink email={email} /> }}
          />
        </p>
      ) : null}
      {settings.isError ? <SettingsUnavailable what="contacts" /> : null}
    </ContentPage>
  );
}

export function TermsOfUseRoute() {
  const { t } = useTranslation("pages");
  return (
    <ContentPage title={t("pages:terms.title")}>
      <Sections prefix="pages:terms" count={5} />
    </ContentPage>
  );
}
