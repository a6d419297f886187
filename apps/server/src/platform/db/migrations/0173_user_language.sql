-- Issue 17: the language a person last signed in with, so mail sent without a request of theirs (an
-- operator's second-factor reset from the CLI) reaches them in that language; null until their next sign-in.
alter table users add column language text check (language in ('uk', 'en'));
