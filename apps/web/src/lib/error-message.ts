import type { ErrorCode, PublicSettings } from "@kpi-id/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "./api-client.ts";
import type { NamespacedKey } from "./i18n.ts";
import type { Language } from "./languages.ts";
import { settingsQueryKey, useSettings } from "./settings.ts";
import { useLanguage } from "./use-language.ts";

/** The code an answer stands for when a proxy in front of KPI ID answered without one. */
function codeForStatus(status: number): ErrorCode | undefined {
  if (status === 429) return "request.rate_limited";
  if (status === 502 || status === 503 || status === 504) return "service.database_unavailable";
  if (status >= 500) return "service.internal_error";
  return undefined;
}

/** "in 2 minutes" / "через 2 хвилини" from Retry-After seconds, in the language's own words. */
export function retryWhen(seconds: number, language: Language): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: "always" });
  return seconds < 60
    ? format.format(Math.max(1, seconds), "second")
    : format.format(Math.ceil(seconds / 60), "minute");
}

export interface ErrorText {
  /** The i18n key: `errors:` and the server's code, or the caller's fallback. */
  key: string;
  code: ErrorCode | undefined;
  values: Record<string, string>;
}

/**
 * What to tell the person about a failed call: the message of the server's code (the code is the key),
 * with when to try again and the address KPI ID must be opened at; the fallback key for anything else.
 */
export function describeError(
  error: unknown,
  fallbackKey: NamespacedKey,
  context: { language: Language; publicUrl?: string; later: string },
): ErrorText {
  if (!(error instanceof ApiError)) return { key: fallbackKey, code: undefined, values: {} };
  if (error.status === 0) return { key: "errors:network", code: undefined, values: {} };
  const code = error.code ?? codeForStatus(error.status);
  if (!code) return { key: fallbackKey, code: undefined, values: {} };
  const when =
    error.retryAfterSeconds === undefined ? context.later : retryWhen(error.retryAfterSeconds, context.language);
  const values: Record<string, string> = { when, origin: context.publicUrl ?? "" };
  const withAddress = code === "request.csrf_rejected" && context.publicUrl ? "_address" : "";
  return { key: `errors:${code}${withAddress}`, code, values };
}

/** describeError with the current language and this deployment's address, translated. */
export function useErrorMessage() {
  const { t } = useTranslation("errors");
  const language = useLanguage();
  const publicUrl = useSettings().data?.publicUrl;
  const queryClient = useQueryClient();
  return useCallback(
    (error: unknown, fallbackKey: NamespacedKey) => {
      // Read when the message is made: a callback kept from before the settings arrived (a mutation's
      // onError, whose options the renderer refreshes after paint) still names the address.
      const settings = queryClient.getQueryData<PublicSettings>(settingsQueryKey);
      const context = { language, publicUrl: settings?.publicUrl ?? publicUrl, later: t("errors:later") };
      const text = describeError(error, fallbackKey, context);
      return { code: text.code, message: t(text.key, text.values) };
    },
    [t, language, publicUrl, queryClient],
  );
}
