import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../../../../test/render.tsx";
import { RecoveryCodesList, recoveryCodesText } from "./recovery-codes-list.tsx";

const codes = Array.from({ length: 10 }, (_, index) => `K7M2Q-9XH${index}4`);

// Issue 37: recovery codes are shown once, so the person can keep them however suits them.
describe("the recovery codes shown after set-up", () => {
  afterEach(() => vi.restoreAllMocks());

  it("copies all ten codes with a line saying what they are", async () => {
    const user = userEvent.setup();
    const written = vi.spyOn(navigator.clipboard, "writeText");
    renderWithProviders(<RecoveryCodesList codes={codes} onDone={() => undefined} />, "/uk/account");
    await user.click(screen.getByRole("button", { name: "Копіювати" }));
    await waitFor(() => expect(written).toHaveBeenCalledTimes(1));
    const copied = String(written.mock.calls[0]?.[0]);
    expect(copied.startsWith("Резервні коди KPI ID.")).toBe(true);
    expect(copied.trim().split("\n").slice(-10)).toEqual(codes);
    expect(await screen.findByText("Резервні коди скопійовано в буфер обміну")).toBeInTheDocument();
  });

  it("downloads them as a text file and offers to print them", async () => {
    const user = userEvent.setup();
    const made: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      made.push(blob as Blob);
      return "blob:codes";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const print = vi.spyOn(window, "print").mockImplementation(() => undefined);
    renderWithProviders(<RecoveryCodesList codes={codes} onDone={() => undefined} />, "/uk/account");
    await user.click(screen.getByRole("button", { name: "Завантажити (.txt)" }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(clicked.mock.instances[0]).toHaveAttribute("download", "kpi-id-recovery-codes.txt");
    const heading =
      "Резервні коди KPI ID. Кожен діє один раз замість коду із застосунку-автентифікатора. Зберігайте їх у надійному місці.";
    expect(await made[0]?.text()).toBe(recoveryCodesText(codes, heading));
    expect(await made[0]?.text()).toContain(codes.join("\n"));
    await user.click(screen.getByRole("button", { name: "Надрукувати" }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});
