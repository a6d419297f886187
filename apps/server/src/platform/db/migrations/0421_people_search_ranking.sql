-- The console's people search ranks its matches (issue 36): exact ids first, then names that begin
-- with the typed words as they are stored, then names that begin with them read the other way round
-- ("Олена Пет" finds "Петренко Олена Іванівна"), then the rest. Each rank is read through an index in
-- its own order, so a page is a short index walk however many people match.

-- The name with its first two words swapped ("петренко олена іванівна" -> "олена петренко іванівна"),
-- lower-cased: a name stored surname first read first-name first, and back. One regular expression
-- (3 µs a name; the search evaluates it on the rows it excludes from rank 4).
create function kpi_name_swapped(name text) returns text
language sql immutable strict parallel safe
return regexp_replace(lower(btrim(name)), '^(\S+)\s+(\S+)', '\2 \1');

-- Rank 3's range (the typed words as a prefix of the swapped name) in the Ukrainian alphabet of
-- migration 0181, so its matches come out of the index already in the list's order.
create index users_name_swapped_order_idx on users ((kpi_name_order(kpi_name_swapped(full_name)) collate "C"), id);

-- Rank 1 compares the whole typed text with the ids case-insensitively (an operator types "кв-1234"
-- for КВ-1234); the indexes of migration 0180 are on the ids as written.
create index users_student_id_lower_idx on users (lower(student_id)) where student_id is not null;
create index users_employee_id_lower_idx on users (lower(employee_id)) where employee_id is not null;
