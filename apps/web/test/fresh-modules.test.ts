import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesNeedingFreshModules, needsFreshModules } from "./fresh-modules.ts";

describe("test files that need modules of their own", () => {
  it("are found by what they contain: a module mock, a reset graph, or the marker", () => {
    expect(needsFreshModules(`vi.mock("@simplewebauthn/browser", () => ({}));`)).toBe(true);
    expect(needsFreshModules(`vi.doMock("sonner");`)).toBe(true);
    expect(needsFreshModules(`beforeEach(() => vi.resetModules());`)).toBe(true);
    expect(needsFreshModules("// vitest: fresh modules (the toaster stays mounted)")).toBe(true);
    expect(needsFreshModules(`vi.spyOn(browser, "replace"); vi.stubGlobal("fetch", fetch);`)).toBe(false);
  });

  it("include the passkey login's mock and the toaster, and no file that mocks nothing", () => {
    const found = filesNeedingFreshModules(join(import.meta.dirname, ".."), ["src", "test"]);
    expect(found).toContain("src/features/auth/components/passkey-login.test.tsx");
    expect(found).toContain("src/app/toaster.test.tsx");
    expect(found).not.toContain("src/features/auth/components/login-form.test.tsx");
  });
});
