-- The people list's order in the Ukrainian alphabet (issue 18). lower(full_name) sorted by code
-- point puts Є, І, Ї before А and Ґ after Я. ICU's uk collation would be the natural fix, but
-- PGlite carries only ICU's root locale, which still puts Ґ before Г and Ї before І. So the 33
-- letters are mapped, in alphabet order, onto consecutive code points of an otherwise unused block
-- (Glagolitic small letters), and the result compared byte-wise ("C"): the same order on both
-- databases, kept by an index so a page of the unfiltered list stays a short index walk.
create function kpi_name_order(name text) returns text
language sql immutable strict parallel safe
return translate(
  lower(name),
  'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя',
  'ⰰⰱⰲⰳⰴⰵⰶⰷⰸⰹⰺⰻⰼⰽⰾⰿⱀⱁⱂⱃⱄⱅⱆⱇⱈⱉⱊⱋⱌⱍⱎⱏⱐ'
);

create index users_name_order_idx on users ((kpi_name_order(full_name) collate "C"), id);
drop index users_full_name_idx;
