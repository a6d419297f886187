import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { toastColours } from "./toaster.tsx";

// sonner's own light-theme backgrounds, read from the stylesheet it ships, so an upgrade that moves
// them is measured again rather than trusted.
// (jsdom gives import.meta.url an http: scheme, so the file is found from the working directory up.)
function sonnerStylesheet(from = process.cwd()): string {
  const candidate = join(from, "node_modules/sonner/dist/styles.css");
  if (existsSync(candidate)) return candidate;
  if (dirname(from) === from) throw new Error("sonner's stylesheet was not found");
  return sonnerStylesheet(dirname(from));
}
const sonnerCss = readFileSync(sonnerStylesheet(), "utf8");
const lightTheme = sonnerCss.slice(sonnerCss.indexOf("[data-sonner-theme='light'] {"));

type Hsl = [number, number, number];

function parseHsl(value: string): Hsl {
  const match = /hsl\((\d+),\s*(\d+)%,\s*(\d+)%\)/.exec(value);
  if (!match) throw new Error(`not an hsl() colour: ${value}`);
  return [Number(match[1]), Number(match[2]) / 100, Number(match[3]) / 100];
}

function sonnerVariable(name: string): Hsl {
  const match = new RegExp(`${name}:\\s*(hsl\\([^)]*\\))`).exec(lightTheme);
  if (!match?.[1]) throw new Error(`sonner no longer defines ${name}`);
  return parseHsl(match[1]);
}

/** WCAG 2.1 relative luminance of an HSL colour. */
function luminance([hue, saturation, lightness]: Hsl): number {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const channel = (offset: number) => {
    const k = (offset + hue / 30) % 12;
    const value = lightness - (chroma / 2) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
}

function contrast(a: Hsl, b: Hsl): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("toast colours", () => {
  for (const type of ["success", "info", "warning", "error"]) {
    it(`${type} toasts' text is at least 4.5:1 on sonner's ${type} background`, () => {
      const text = (toastColours as Record<string, string>)[`--${type}-text`];
      expect(text).toBeDefined();
      const ratio = contrast(parseHsl(text ?? ""), sonnerVariable(`--${type}-bg`));
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    });
  }

  it("measures sonner's own defaults as too faint (the reason for the override)", () => {
    expect(contrast(sonnerVariable("--error-text"), sonnerVariable("--error-bg"))).toBeLessThan(4.5);
  });
});
