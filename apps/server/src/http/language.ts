import { defaultLanguage, isLanguage, type Language } from "@kpi-id/contracts";

/** Picks uk or en from an Accept-Language header by quality; Ukrainian when neither is asked for. */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return defaultLanguage;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";");
      const quality = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const q = quality ? Number.parseFloat(quality.slice(2)) : 1;
      return { base: tag.toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked.find((entry) => isLanguage(entry.base))?.base as Language | undefined) ?? defaultLanguage;
}
