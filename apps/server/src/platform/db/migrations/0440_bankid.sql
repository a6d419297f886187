-- Sign-in with BankID NBU (issue 38): a method of its own in sessions, grants and tickets,
-- and the identity documents a person may be matched by when their bank sends no tax id.
alter table sessions drop constraint sessions_auth_method_check;
alter table sessions add constraint sessions_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY', 'BANK_ID'));
alter table login_grants drop constraint login_grants_auth_method_check;
alter table login_grants add constraint login_grants_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY', 'BANK_ID'));
alter table tickets drop constraint tickets_auth_method_check;
alter table tickets add constraint tickets_auth_method_check
  check (auth_method in ('PASSWORD', 'GOOGLE', 'DIIA', 'PASSKEY', 'BANK_ID'));

-- passport: the paper internal passport (two Cyrillic letters and six digits);
-- idpassport: the ID card (nine digits, no series); zpassport: the passport for travel abroad.
-- Series and number are kept as banks send them after normalising (upper case, no spaces);
-- the ID card's series is the empty string.
create table identity_documents (
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('passport', 'idpassport', 'zpassport')),
  series text not null default '',
  number text not null check (number <> ''),
  created_at timestamptz not null default now(),
  primary key (kind, series, number)
);
create index identity_documents_user_idx on identity_documents (user_id);
