import type { FastifyInstance } from "fastify";
import { sql } from "kysely";

const firstNames = [
  "Олена",
  "Іван",
  "Марія",
  "Андрій",
  "Оксана",
  "Дмитро",
  "Юлія",
  "Сергій",
  "Наталія",
  "Олександр",
  "Тетяна",
  "Максим",
  "Ірина",
  "Богдан",
  "Світлана",
  "Тарас",
  "Анна",
  "Володимир",
  "Катерина",
  "Микола",
];
export const surnames = [
  "Петренко",
  "Коваленко",
  "Бондаренко",
  "Шевченко",
  "Мельник",
  "Кравченко",
  "Ткаченко",
  "Олійник",
  "Лисенко",
  "Руденко",
  "Савченко",
  "Марченко",
  "Кузьменко",
  "Гончаренко",
  "Білик",
  "Поліщук",
  "Бойко",
  "Ковальчук",
  "Павленко",
  "Романенко",
  "Левченко",
  "Захарченко",
  "Ничипорук",
  "Гребенюк",
];

/**
 * A university's worth of people, made in batches of one statement: a first name and a surname
 * from common Ukrainian ones, a username, an e-mail for most, a student id (КВ-…) or an employee
 * id, a tax id for half, one in fifty disabled. Each choice hashes the row number (hashtext), so
 * no two attributes move together the way they would if all were taken from n modulo something;
 * statistics are gathered afterwards as autovacuum would.
 */
export async function addPopulation(app: FastifyInstance, count: number): Promise<void> {
  const first = sql.val(firstNames);
  const last = sql.val(surnames);
  // In batches: one statement for all would outlast the pool's statement timeout on a busy machine.
  const batch = 10_000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await sql`
      insert into users (username, full_name, email, tax_id, student_id, employee_id, status)
      select
        'u' || n,
        (${first}::text[])[1 + abs(hashtext('first' || n)) % ${firstNames.length}] || ' ' ||
          (${last}::text[])[1 + abs(hashtext('last' || n)) % ${surnames.length}],
        case when abs(hashtext('mail' || n)) % 5 <> 0
          then 'u' || n || '@' || case when abs(hashtext('lll' || n)) % 3 = 0 then 'lll.kpi.ua' else 'kpi.ua' end end,
        case when n % 2 = 0 then lpad((3000000000 + n)::text, 10, '0') end,
        case when abs(hashtext('staff' || n)) % 10 <> 0 then 'КВ-' || lpad(n::text, 6, '0') end,
        case when abs(hashtext('staff' || n)) % 10 = 0 then 'EMP-' || n end,
        case when abs(hashtext('off' || n)) % 50 = 0 then 'disabled' else 'active' end
      from generate_series(${from}::int, ${to}::int) as n
    `.execute(app.db);
  }
  await sql`analyze users`.execute(app.db);
}

/** Gives roughly one person in `every` access to the application, chosen by hashing their id. */
export async function grantToEvery(app: FastifyInstance, applicationId: string, every: number): Promise<void> {
  await sql`insert into user_applications (user_id, application_id)
    select id, ${applicationId}::uuid from users where abs(hashtext(id::text)) % ${every} = 0`.execute(app.db);
  await sql`analyze user_applications`.execute(app.db);
}

/**
 * Gives every person a student record in one of `units` faculties, chosen by hashing the row, so a faculty holds
 * about count / units people (issue 79: a unit admin's search is scoped to their faculty). Answers the units' ids.
 */
export async function addFaculties(app: FastifyInstance, units: number): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    insert into units (code, kind, name_uk)
    select 'F' || n, 'faculty', 'Факультет ' || n from generate_series(1, ${units}::int) as n
    returning id`.execute(app.db);
  const ids = rows.rows.map((row) => row.id);
  await sql`update units set ancestry = array[id] where ancestry = '{}'`.execute(app.db);
  // In batches, as addPopulation: each record also writes its person's units (migration 0760).
  const batches = 10;
  for (let batch = 0; batch < batches; batch++) {
    await sql`insert into student_records (user_id, unit_id, student_id, status, source, is_primary)
      select users.id, (${sql.val(ids)}::uuid[])[1 + abs(hashtext('unit' || users.id::text)) % ${units}],
        coalesce(users.student_id, 'S-' || users.username), 'studying', 'bench', true
      from users where abs(hashtext('batch' || users.id::text)) % ${batches} = ${batch}`.execute(app.db);
  }
  // The people's rows were written again (their units): visited as autovacuum would.
  await sql`vacuum analyze student_records`.execute(app.db);
  await sql`vacuum analyze users`.execute(app.db);
  return ids;
}
