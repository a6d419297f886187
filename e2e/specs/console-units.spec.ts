import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addAuthenticator, addPerson } from "@kpi-id/server/testing";
import { expect, expectNoAxeViolations, test } from "../fixtures.ts";
import { ConsolePage } from "../pages/console-page.ts";
import { ConsoleUnitsPage } from "../pages/console-units-page.ts";
import { closeTheAnswersToast, closeToasts } from "../pages/toasts.ts";
import { signInWithCodeThroughApi, wrongPasswordThroughApi } from "../tools/api-sign-in.ts";
import { type OwnKpiId, ownKpiIdOrigin, startOwnKpiId } from "../tools/own-kpi-id.ts";
import { photograph } from "../tools/photographs.ts";

/**
 * Issue 79: a faculty's administrator runs their own. The units, people and the role are made with the operator CLI
 * on a KPI ID of the spec's own (the shared server's demo campus has no units, and the CLI is how an operator grants
 * a role in a unit); the unit admin signs in with a password and an authenticator code, the strong sign-in the
 * console asks for. Each language walks at one width (uk at a phone's, en at a laptop's) and photographs every
 * screen at both, so the four views cost two walks, as console-ldap.spec.ts does.
 */
const port = Number(process.env.E2E_PORT_BASE ?? 3300) + 7;
const origin = ownKpiIdOrigin(port);
const password = "a unit walker's long passphrase";
const fictAdmin = { username: "fict.admin", fullName: "Сидоренко Ірина", password };
const students = {
  uk: { username: "fict.student.uk", fullName: "Ковальчук Олег" },
  en: { username: "fict.student.en", fullName: "Мельник Дарина" },
} as const;
const felStudent = { username: "fel.student", fullName: "Левченко Марія" };
const departmentSearch = { uk: "кафедра обчислювальної", en: "computer engineering" } as const;
const walkWidth = { uk: 390, en: 1280 } as const;
const sections = {
  uk: ["Люди", "Застосунки", "Перевірка застосунків", "Журнал", "Гості"],
  en: ["People", "Applications", "Application reviews", "Audit log", "Guests"],
} as const;

const centralAdmin = { username: "kpi.admin", fullName: "Бондаренко Андрій", password };

let kpiId: OwnKpiId | undefined;
let felStudentId = "";

/** A person's authenticator app: its codes, and the last time step the server took (each once, only later ones after). */
interface Authenticator {
  codeAt: (when: Date) => Promise<string>;
  lastStep: number;
}
const authenticators = new Map<string, Authenticator>();

/** The person's next code the server has not seen: a step after the last, within its one step of skew. */
function nextCode(username: string) {
  return async (): Promise<string> => {
    const app = authenticators.get(username);
    if (!app) throw new Error(`${username} has no authenticator`);
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      const step = Math.max(app.lastStep + 1, now - 1);
      if (step <= now + 1) {
        app.lastStep = step;
        return app.codeAt(new Date(step * 30_000));
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  };
}

/** An operator with a password and an authenticator app, for the console's strong sign-in. */
async function addOperator(running: OwnKpiId, person: typeof fictAdmin, role: string[]) {
  const added = await addPerson(running.app, { username: person.username, fullName: person.fullName }, password);
  await running.cli(["role", "grant", "--username", person.username, ...role]);
  const setUpAt = new Date();
  const codeAt = await addAuthenticator(running.app, added, setUpAt);
  authenticators.set(person.username, { codeAt, lastStep: Math.floor(setUpAt.getTime() / 30_000) });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  kpiId = await startOwnKpiId(port);
  const { cli } = kpiId;
  const unit = (code: string, kind: string, nameUk: string, nameEn: string, parent?: string) =>
    cli([
      "unit",
      "set",
      "--code",
      code,
      "--kind",
      kind,
      "--name-uk",
      nameUk,
      "--name-en",
      nameEn,
      ...(parent ? ["--parent", parent] : []),
    ]);
  await unit("KPI", "university", "КПІ ім. Ігоря Сікорського", "Igor Sikorsky KPI");
  await unit(
    "FICT",
    "faculty",
    "Факультет інформатики та обчислювальної техніки",
    "Faculty of Informatics and Computer Science",
    "KPI",
  );
  await unit("FICT-CS", "department", "Кафедра обчислювальної техніки", "Department of Computer Engineering", "FICT");
  await unit("FICT-IS", "department", "Кафедра інформаційних систем", "Department of Information Systems", "FICT");
  await unit("FEL", "faculty", "Факультет електроніки", "Faculty of Electronics", "KPI");
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-units-"));
  const file = join(dir, "people.csv");
  writeFileSync(
    file,
    [
      "username,full-name,student-id,student-unit,password",
      `${students.uk.username},${students.uk.fullName},КВ-2101,FICT-CS,${password}`,
      `${students.en.username},${students.en.fullName},КВ-2102,FICT-IS,${password}`,
      `${felStudent.username},${felStudent.fullName},ДЕ-3101,FEL,${password}`,
    ].join("\r\n"),
  );
  await cli(["user", "import", "--file", file]);
  rmSync(dir, { recursive: true, force: true });
  const people = JSON.parse(await cli(["user", "list", "--json"])) as { id: string; username: string }[];
  felStudentId = people.find((person) => person.username === felStudent.username)?.id ?? "";
  await addOperator(kpiId, fictAdmin, ["--role", "unit_admin", "--unit", "FICT"]);
  await addOperator(kpiId, centralAdmin, ["--role", "admin"]);
});

test.afterAll(async () => {
  await kpiId?.close();
});
for (const language of ["uk", "en"] as const) {
  test(`a faculty's unit admin unlocks their student, registers an application for the faculty and limits it to a department; another faculty's student does not exist (${language})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const console = new ConsolePage(page, language);
    const units = new ConsoleUnitsPage(page, language);
    const student = students[language];
    // A stranger's wrong guess holds the student's account, as the unlock is there for.
    await wrongPasswordThroughApi(page, student.username, origin);
    await signInWithCodeThroughApi(page, language, fictAdmin, nextCode(fictAdmin.username), origin);
    await page.setViewportSize({ width: walkWidth[language], height: 900 });
    await page.goto(`${origin}/${language}/admin`);
    await expect(console.search).toBeVisible();
    await expect(units.operator).toContainText(`${units.text.unitAdmin} · FICT`);
    expect(await units.sections()).toEqual(sections[language]);

    // The other faculty's student is nobody to them: not found by name, their address answers as nobody's.
    await console.search.fill(felStudent.fullName);
    await expect(units.nobody).toBeVisible();
    await page.goto(`${origin}/${language}/admin/people/${felStudentId}`);
    await expect(units.notFound).toBeVisible();
    await expectNoAxeViolations(page, "a person out of reach");
    await photograph(page, testInfo, `console-units-out-of-reach-${language}`, { backTo: walkWidth[language] });

    // The people list names each person's unit beside the name, in view at a phone's width before any sideways
    // scroll (it was past it).
    await page.goto(`${origin}/${language}/admin`);
    await console.search.fill(student.username);
    const unitCell = page.getByTestId("person-units").first();
    await expect(unitCell).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await unitCell.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: walkWidth[language], height: 900 });
    await photograph(page, testInfo, `console-units-people-${language}`, { backTo: walkWidth[language] });

    await page.goto(`${origin}/${language}/admin`);
    await console.findAndOpen(student.username, student.fullName);
    await expect(console.unlockButton).toBeEnabled();
    await console.confirm("unlock");
    // The unlock's answer: its "Done." toast (the state said "not locked" before it, and the button is disabled while
    // the request runs, so neither waits for the answer).
    await expect(console.doneToast).toBeVisible();
    await expect(units.throttleState).toHaveText(units.text.notLocked);
    await expect(console.unlockButton).toBeDisabled();
    // axe reads the "Done." toast fading out as faint text: the page is checked without it.
    await closeToasts(page);
    await expectNoAxeViolations(page, "the unit's student");
    await photograph(page, testInfo, `console-units-person-${language}`, { backTo: walkWidth[language] });

    // An application for the faculty: the picker offers the faculty and its departments, the faculty first chosen.
    const title = language === "uk" ? "Лабораторія ФІОТ" : "FICT lab";
    await console.openApplications();
    expect(await units.pickerCodes("create-unit")).toEqual(["FICT", "FICT-CS", "FICT-IS"]);
    await expect(page.getByTestId("create-unit").getByRole("radio", { name: /^FICT / })).toBeChecked();
    await console.createApplication(`fict-lab-${language}`, title, `https://lab.fict.kpi.ua/${language}/cb`);
    await expect(console.secret).toBeVisible();
    await expect(console.rowOf(title)).toContainText("FICT");
    await expectNoAxeViolations(page, "the unit's applications");
    await photograph(page, testInfo, `console-units-applications-${language}`, { backTo: walkWidth[language] });

    // Limited to one department: the rule's picker offers the units in reach alone, "any unit" not among them.
    await console.openApplication(title);
    await expect(units.applicationUnit).toContainText("FICT");
    expect(await units.pickerCodes("rule-unit")).toEqual(["FICT", "FICT-CS", "FICT-IS"]);
    await units.addRuleForUnit(departmentSearch[language], "FICT-CS");
    await expect(units.rules).toContainText("FICT-CS");
    await expect(units.rules.getByRole("listitem")).toHaveCount(1);
    await expectNoAxeViolations(page, "the unit's application");
    await photograph(page, testInfo, `console-units-application-${language}`, { backTo: walkWidth[language] });
  });

  test(`an admin gives a person a role in a unit found with the unit picker, and takes it away; lets a department decide its reviews (${language})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const units = new ConsoleUnitsPage(page, language);
    await signInWithCodeThroughApi(page, language, centralAdmin, nextCode(centralAdmin.username), origin);
    await page.setViewportSize({ width: walkWidth[language], height: 900 });
    await page.goto(`${origin}/${language}/admin/people/${felStudentId}`);
    await units.waitForPersonScreen(felStudent.fullName);
    await expect(units.unitRoleList.getByRole("listitem")).toHaveCount(0);
    await units.grantUnitRole("unit_helpdesk", "FEL", "FEL");
    const held = units.unitRoleList.getByRole("listitem");
    await expect(held).toHaveCount(1);
    await expect(held).toContainText(`${units.text.unitHelpdesk} · FEL`);
    await closeTheAnswersToast(page);
    await expectNoAxeViolations(page, "a person's roles in units");
    await photograph(page, testInfo, `console-units-unit-roles-${language}`, { backTo: walkWidth[language] });
    await units.revokeFirstUnitRole();
    await expect(held).toHaveCount(0);

    // Letting a department's admins decide its reviews: the review screen says what it means, the CLI reads it.
    await page.goto(`${origin}/${language}/admin/reviews`);
    await expect(units.noUnitDecides).toBeVisible();
    await units.letUnitDecide(departmentSearch[language], "FICT-CS");
    await expect(units.unitsDecidingList.getByRole("listitem")).toHaveCount(1);
    await expect(units.unitsDecidingList).toContainText("FICT-CS");
    const listed = JSON.parse((await kpiId?.cli(["unit", "list", "--json"])) ?? "[]") as {
      code: string;
      reviewsFinal: boolean;
    }[];
    expect(listed.filter((unit) => unit.reviewsFinal).map((unit) => unit.code)).toEqual(["FICT-CS"]);
    await closeToasts(page);
    await expectNoAxeViolations(page, "the units that decide their own reviews");
    await photograph(page, testInfo, `console-units-units-deciding-${language}`, { backTo: walkWidth[language] });
    await units.takeBackFirstUnitDeciding();
    await expect(units.noUnitDecides).toBeVisible();
  });
}
