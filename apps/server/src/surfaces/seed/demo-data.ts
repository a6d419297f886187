/**
 * The demo campus that `npm start` seeds (never in production). Tests, the
 * sandbox stand-ins and the README use the same people.
 */
export interface DemoPerson {
  username: string;
  password: string;
  fullName: string;
  email: string;
  /**
   * KPI ID has seen this address proven (as a sign-in with the university's Google Workspace does), so
   * security mail and "Forgot password?" by e-mail reach it: in the sandbox, the mail stand-in's inbox.
   */
  emailVerified?: true;
  /** РНОКПП with a valid check digit (bankid/tax-id.ts): BankID trusts no other for matching. */
  taxId: string;
  /** Identity documents BankID matches by when a bank sends no tax id (identity_documents, migration 0440). */
  documents?: DemoDocument[];
  studentId?: string;
  employeeId?: string;
  apps: string[];
  /** Console roles (admin/roles.ts): the demo campus has an admin and a helpdesk person. */
  roles?: ("admin" | "helpdesk")[];
}

/** A paper passport (series of two Cyrillic letters, six digits) or an ID card (nine digits, no series). */
export interface DemoDocument {
  kind: "passport" | "idpassport" | "zpassport";
  series?: string;
  number: string;
}

export const demoPeople: DemoPerson[] = [
  {
    username: "student",
    password: "student-demo-2026",
    fullName: "Олена Коваленко",
    email: "olena.kovalenko@lll.kpi.ua",
    taxId: "3012345670",
    documents: [{ kind: "idpassport", number: "001234567" }],
    studentId: "KV-2431",
    apps: ["campus", "my-kpi", "demo-site"],
  },
  {
    username: "employee",
    password: "employee-demo-2026",
    fullName: "Андрій Мельник",
    email: "andrii.melnyk@kpi.ua",
    emailVerified: true,
    taxId: "2712345673",
    documents: [{ kind: "passport", series: "МЕ", number: "271234" }],
    employeeId: "E-10042",
    apps: ["campus", "my-kpi"],
    roles: ["admin"],
  },
  {
    username: "both",
    password: "both-demo-2026",
    fullName: "Ірина Шевченко",
    email: "iryna.shevchenko@kpi.ua",
    taxId: "2912345672",
    documents: [{ kind: "idpassport", number: "004567891" }],
    studentId: "PhD-0117",
    employeeId: "E-20311",
    apps: ["campus", "my-kpi", "demo-site"],
    roles: ["helpdesk"],
  },
  {
    username: "newcomer",
    password: "newcomer-demo-2026",
    fullName: "Максим Бондар",
    email: "maksym.bondar@lll.kpi.ua",
    taxId: "3312345674",
    documents: [{ kind: "passport", series: "КВ", number: "123456" }],
    studentId: "KV-3390",
    apps: [],
  },
  {
    // A researcher who signs in to the federation's services (SAML). The SAML browser walks give
    // them an authenticator app and sign them out of SPs, so no other walk uses them.
    username: "researcher",
    password: "researcher-demo-2026",
    fullName: "Богдан Гнатюк",
    email: "bohdan.hnatiuk@kpi.ua",
    taxId: "2812345678",
    employeeId: "E-30518",
    apps: ["campus"],
  },
];

/** The demo third-party site (examples/demo-app); DEMO_SITE_URL or DEMO_SITE_PORT move it (e2e runs it on 4300). */
export const DEMO_SITE_ORIGIN = new URL(
  process.env.DEMO_SITE_URL ?? `http://localhost:${process.env.DEMO_SITE_PORT ?? 4000}`,
).origin;

export interface DemoApplication {
  name: string;
  title: string;
  description: string;
  titleEn: string;
  descriptionEn: string;
  callbackUrl: string;
}

export const demoApplications: DemoApplication[] = [
  {
    name: "campus",
    title: "Електронний кампус",
    description: "Розклад, оцінки, навчальні матеріали та заяви.",
    titleEn: "Electronic campus",
    descriptionEn: "Timetable, marks, course materials and applications.",
    callbackUrl: `${DEMO_SITE_ORIGIN}/campus/callback`,
  },
  {
    name: "my-kpi",
    title: "Мій КПІ",
    description: "Особистий кабінет студента та працівника.",
    titleEn: "My KPI",
    descriptionEn: "The personal page of students and staff.",
    callbackUrl: `${DEMO_SITE_ORIGIN}/my-kpi/callback`,
  },
  {
    name: "demo-site",
    title: "Демо-сайт інтегратора",
    description: "Сторонній сайт із кнопкою «Увійти з KPI ID».",
    titleEn: "Integrator's demo site",
    descriptionEn: "A third-party site with the “Sign in with KPI ID” button.",
    callbackUrl: `${DEMO_SITE_ORIGIN}/callback`,
  },
];
