import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "signin-button",
    environment: "jsdom",
    include: ["test/**/*.test.{ts,tsx}"],
  },
});
