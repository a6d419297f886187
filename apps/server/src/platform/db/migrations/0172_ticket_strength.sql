-- Issue 17: a ticket remembers how strongly the person had signed in (the session's RFC 8176
-- amr values), so the exchange can tell the application (data.AUTH_AMR, data.AUTH_ACR).
alter table tickets add column amr text[] not null default '{}';
