import { iconMaxBytes } from "@kpi-id/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api-client.ts";
import { initTestI18n } from "../../../../test/i18n.ts";
import { renderWithProviders } from "../../../../test/render.tsx";
import { IconField } from "./icon-field.tsx";

async function iconField(language: "uk" | "en", value = "", upload = vi.fn()) {
  const onChange = vi.fn();
  await initTestI18n(language);
  renderWithProviders(<IconField value={value} onChange={onChange} upload={upload} />, `/${language}/`);
  return { onChange, upload, user: userEvent.setup({ applyAccept: false }) };
}

/** Issue 60: the icon is a PNG or SVG uploaded to KPI ID; a wrong file is refused beside the field, not sent. */
describe("the icon field of the developers' form", () => {
  it("refuses a GIF beside the field without sending it, in English", async () => {
    const { upload, onChange, user } = await iconField("en");
    const input = await screen.findByLabelText("Icon");
    await user.upload(input, new File(["GIF89a"], "icon.gif", { type: "image/gif" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The icon must be a PNG");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(upload).not.toHaveBeenCalled();
    expect(onChange).not.toHaveBeenCalled();
  });

  it("refuses a PNG over the size limit, in Ukrainian", async () => {
    const { upload, user } = await iconField("uk");
    const big = new File([new Uint8Array(iconMaxBytes + 1)], "icon.png", { type: "image/png" });
    await user.upload(await screen.findByLabelText("Значок"), big);
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Піктограма має бути файлом PNG або простим SVG до 64 КіБ",
    );
    expect(upload).not.toHaveBeenCalled();
  });

  it("puts the address KPI ID answers into the form, and removes the icon", async () => {
    const iconUrl = `/api/developers/icons/${"b".repeat(64)}.png`;
    const { upload, onChange, user } = await iconField(
      "en",
      iconUrl,
      vi.fn(async () => ({ iconUrl })),
    );
    await user.upload(await screen.findByLabelText("Icon"), new File(["png"], "icon.png", { type: "image/png" }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(iconUrl));
    expect(upload).toHaveBeenCalledWith({ contentType: "image/png", data: btoa("png") });
    await user.click(screen.getByRole("button", { name: "Remove the icon" }));
    expect(onChange).toHaveBeenLastCalledWith("");
  });

  it("shows the server's refusal of an unsafe SVG beside the field, in English", async () => {
    const upload = vi.fn(async () => {
      throw new ApiError("Failed: icon", 400, "developer.invalid_icon");
    });
    const { onChange, user } = await iconField("en", "", upload);
    const svg = new File(["<svg><script/></svg>"], "icon.svg", { type: "image/svg+xml" });
    await user.upload(await screen.findByLabelText("Icon"), svg);
    expect(await screen.findByRole("alert")).toHaveTextContent("The icon must be a PNG");
    expect(upload).toHaveBeenCalledTimes(1);
    expect(onChange).not.toHaveBeenCalled();
  });
});
