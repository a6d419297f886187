import { describe, expect, it } from "vitest";
import { cn } from "./utils.ts";

describe("cn", () => {
  it("joins the classes that are set and skips the rest", () => {
    expect(cn("flex gap-2", false, undefined, { "opacity-50": true, hidden: false }, "py-4")).toBe(
      "flex gap-2 opacity-50 py-4",
    );
  });

  it("refuses, in development and tests, two classes that set the same property", () => {
    expect(() => cn("size-4 animate-spin", "size-8")).toThrow(/size-4 overridden/);
    expect(() => cn("text-sm font-medium", "text-base")).toThrow(/text-sm overridden/);
  });

  it("accepts the same utility under different variants", () => {
    expect(cn("px-4 sm:px-6 hover:bg-muted", "bg-white")).toBe("px-4 sm:px-6 hover:bg-muted bg-white");
  });
});
