import { useTranslation } from "react-i18next";
import { CopyButton } from "@/components/ui/copy-button.tsx";

/** One snippet with its copy button; a successful copy is confirmed by a toast. */
export function CodeSection({ title, code }: { title: string; code: string }) {
  const { t } = useTranslation("button-wizard");
  return (
    <section className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        <CopyButton
          text={code}
          copiedMessage={t("integration.copied")}
          aria-label={`${t("integration.copy")}: ${title}`}
        >
          {t("integration.copy")}
        </CopyButton>
      </div>
      {/* Long lines scroll sideways; keyboard users reach the scroll area with Tab. */}
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll without a mouse
        tabIndex={0}
        className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2"
      >
        <code>{code}</code>
      </pre>
    </section>
  );
}
