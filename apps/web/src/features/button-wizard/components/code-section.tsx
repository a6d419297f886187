import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { notify } from "@/lib/notify.ts";

/** One snippet with its copy button; a successful copy is confirmed by a toast. */
export function CodeSection({ title, code }: { title: string; code: string }) {
  const { t } = useTranslation("button-wizard");
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      notify("success", t("integration.copied"));
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      notify("error", t("integration.copy-failed"));
    }
  };
  return (
    <section className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        <Button
          variant="outline"
          size="sm"
          onClick={copy}
          aria-label={`${t("integration.copy")}: ${title}`}
          icon={copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        >
          {t("integration.copy")}
        </Button>
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
