import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "@/lib/notify.ts";
import { Button, type ButtonProps } from "./button.tsx";

interface CopyButtonProps extends Omit<ButtonProps, "onClick" | "icon"> {
  /** What goes to the clipboard. */
  text: string;
  /** The toast after a copy; the generic "Copied" when left out. */
  copiedMessage?: string;
}

/**
 * Copies `text` and says so in a toast; the icon turns into a tick for two seconds. A browser that
 * refuses the clipboard (an insecure origin, a denied permission) gets an error toast, never silence.
 */
export function CopyButton({ text, copiedMessage, children, ...button }: CopyButtonProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      notify("success", copiedMessage ?? t("common:copy.copied"));
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      notify("error", t("common:copy.failed"));
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      {...button}
      onClick={copy}
      icon={copied ? <Check aria-hidden /> : <Copy aria-hidden />}
    >
      {children ?? t("common:copy.copy")}
    </Button>
  );
}
