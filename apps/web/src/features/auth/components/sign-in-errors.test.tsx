import type { DiiaAppLink, ErrorCode, Language } from "@kpi-id/contracts";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { apiError, json, mockFetch, signedIn, unauthorized } from "../../../../test/fetch-mock.ts";
import { renderApp } from "../../../../test/render.tsx";

/** One error answer the screens can receive, and what the person reads in each language. */
interface Case {
  status: number;
  code: ErrorCode;
  headers?: Record<string, string>;
  testId: "invalid-credentials" | "sign-in-error";
  text: Record<Language, string>;
}

const loginCases: Case[] = [
  {
    status: 401,
    code: "auth.invalid_credentials",
    testId: "invalid-credentials",
    text: {
      uk: "Неправильний логін або пароль. Перевірте дані та спробуйте ще раз.",
      en: "The username or password is incorrect. Check them and try again.",
    },
  },
  {
    status: 403,
    code: "request.csrf_rejected",
    testId: "sign-in-error",
    text: {
      uk: "KPI ID потрібно відкривати за його власною адресою, а цю сторінку відкрито за іншою. Відкрийте http://localhost:3000 і увійдіть там.",
      en: "KPI ID must be opened at its own address, and this page was opened at another one. Open http://localhost:3000 and sign in there.",
    },
  },
  {
    status: 429,
    code: "auth.too_many_attempts",
    headers: { "Retry-After": "120" },
    testId: "sign-in-error",
    text: {
      uk: "Забагато спроб входу. Спробуйте ще раз через 2 хвилини.",
      en: "Too many sign-in attempts. Try again in 2 minutes.",
    },
  },
  {
    status: 503,
    code: "service.database_unavailable",
    headers: { "Retry-After": "5" },
    testId: "sign-in-error",
    text: {
      uk: "KPI ID ненадовго недоступний. Спробуйте ще раз через 5 секунд.",
      en: "KPI ID is briefly unavailable. Try again in 5 seconds.",
    },
  },
];

const languages: Language[] = ["uk", "en"];
const labels = {
  uk: { username: "Логін", password: "Пароль", submit: "Увійти" },
  en: { username: "Username", password: "Password", submit: "Sign in" },
};

describe.each(languages)("the login screen in %s", (language) => {
  it.each(loginCases)("answers $status $code with its own message", async ({ status, code, headers, testId, text }) => {
    const answer = apiError(code, headers);
    expect(answer.status).toBe(status);
    mockFetch({ "GET /user": unauthorized, "POST /api/auth": () => answer });
    renderApp(`/${language}/`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(labels[language].username), "student");
    await user.type(screen.getByLabelText(labels[language].password), "student-demo-2026");
    await user.click(screen.getByRole("button", { name: labels[language].submit }));
    const alert = await screen.findByTestId(testId);
    expect(alert).toHaveTextContent(text[language]);
    if (testId !== "invalid-credentials") expect(screen.queryByTestId("invalid-credentials")).not.toBeInTheDocument();
  });

  it("tells a locked-out person what still works: Diia, Google, a reset, a browser that signed in before", async () => {
    mockFetch({
      "GET /user": unauthorized,
      "POST /api/auth": () => apiError("auth.too_many_attempts", { "Retry-After": "900" }),
    });
    renderApp(`/${language}/`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(labels[language].username), "student");
    await user.type(screen.getByLabelText(labels[language].password), "x");
    await user.click(screen.getByRole("button", { name: labels[language].submit }));
    const help = await screen.findByTestId("locked-out-help");
    const words = {
      uk: { when: "через 15 хвилин", diia: "Увійти через Дію", reset: "Відновити пароль", browser: "вже входили" },
      en: {
        when: "in 15 minutes",
        diia: "Sign in with Diia",
        reset: "Reset your password",
        browser: "signed in with before",
      },
    }[language];
    expect(screen.getByTestId("sign-in-error")).toHaveTextContent(words.when);
    expect(within(help).getByRole("link", { name: words.diia })).toHaveAttribute("href", `/${language}/diia`);
    expect(within(help).getByRole("link", { name: words.reset })).toHaveAttribute(
      "href",
      `/${language}/forgot-password`,
    );
    expect(help).toHaveTextContent("Google");
    expect(help).toHaveTextContent(words.browser);
  });

  it("says when to try again without a Retry-After header", async () => {
    mockFetch({ "GET /user": unauthorized, "POST /api/auth": () => apiError("auth.too_many_attempts") });
    renderApp(`/${language}/`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(labels[language].username), "student");
    await user.type(screen.getByLabelText(labels[language].password), "x");
    await user.click(screen.getByRole("button", { name: labels[language].submit }));
    expect(await screen.findByTestId("sign-in-error")).toHaveTextContent(
      language === "uk" ? "Спробуйте ще раз пізніше." : "Try again later.",
    );
  });
});

const diiaLink = (): DiiaAppLink => ({
  deepLink: "https://diia.app/request/1",
  pageLink: "https://diia.app/request/1",
  requestId: "req-1",
  createdAt: new Date().toISOString(),
});
const links = () => json(diiaLink());
const finished = () => json({ status: "Finished", sessionId: "grant-9" });

/** Each Diia case: which call fails and what the toast then says. */
const diiaCases: { call: string; answer: () => Response; text: Record<Language, string> }[] = [
  {
    call: "POST /api/auth/internal",
    answer: () => apiError("auth.grant_invalid"),
    text: {
      uk: "Вхід тривав задовго або вже був використаний. Увійдіть ще раз.",
      en: "The sign-in took too long or was already used. Sign in again.",
    },
  },
  {
    call: "POST /api/auth/internal",
    answer: () => apiError("request.csrf_rejected"),
    text: {
      uk: "Відкрийте http://localhost:3000 і увійдіть там.",
      en: "Open http://localhost:3000 and sign in there.",
    },
  },
  {
    call: "GET /api/diia/app-link",
    answer: () => apiError("request.rate_limited", { "Retry-After": "30" }),
    text: {
      uk: "Забагато запитів. Спробуйте ще раз через 30 секунд.",
      en: "Too many requests. Try again in 30 seconds.",
    },
  },
  {
    call: "GET /api/diia/app-link",
    answer: () => apiError("service.database_unavailable", { "Retry-After": "5" }),
    text: {
      uk: "KPI ID ненадовго недоступний. Спробуйте ще раз через 5 секунд.",
      en: "KPI ID is briefly unavailable. Try again in 5 seconds.",
    },
  },
];

describe.each(languages)("the Diia screen in %s", (language) => {
  it.each(diiaCases)("shows the message of $call failing", async ({ call, answer, text }) => {
    mockFetch({
      "GET /user": unauthorized,
      "GET /api/diia/app-link": links,
      "GET /api/diia/check-request": finished,
      "POST /api/auth/internal": () => signedIn(),
      [call]: answer,
    });
    renderApp(`/${language}/diia`);
    expect(await screen.findByText(text[language], { exact: false })).toBeInTheDocument();
  });
});
