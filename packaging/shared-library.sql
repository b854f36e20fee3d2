-- refman: one library shared by a research group, on a PostgreSQL server (13 or newer).
--
-- Run once, as a PostgreSQL superuser, after changing the names to yours:
--     psql -v ON_ERROR_STOP=1 -f shared-library.sql
--
-- It makes three kinds of user:
--   lab_papers_owner  creates the library (refman makes its tables the first time this user
--                     opens it) and upgrades it when a newer refman needs a newer schema;
--   refman_editors    everyone who may add, tag, annotate and edit papers;
--   refman_readers    everyone who may only browse, search, cite and export.
-- Passwords are set with \password NAME in psql. refman never stores them: each person puts
-- theirs in ~/.pgpass (see the README, "Sharing a library with your group").

CREATE ROLE refman_editors NOLOGIN;
CREATE ROLE refman_readers NOLOGIN;
CREATE ROLE lab_papers_owner LOGIN;
CREATE DATABASE lab_papers OWNER lab_papers_owner ENCODING 'UTF8' TEMPLATE template0;

\connect lab_papers

-- The owner creates the tables; PostgreSQL 15 lets only the schema's owner create in it.
ALTER SCHEMA public OWNER TO lab_papers_owner;

-- Whatever the owner creates (now and at every upgrade), editors may change and readers read.
ALTER DEFAULT PRIVILEGES FOR ROLE lab_papers_owner IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO refman_editors;
ALTER DEFAULT PRIVILEGES FOR ROLE lab_papers_owner IN SCHEMA public
    GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO refman_editors;
ALTER DEFAULT PRIVILEGES FOR ROLE lab_papers_owner IN SCHEMA public
    GRANT SELECT ON TABLES TO refman_readers;
ALTER DEFAULT PRIVILEGES FOR ROLE lab_papers_owner IN SCHEMA public
    GRANT SELECT ON SEQUENCES TO refman_readers;

-- The people of the group (one line each; LOGIN lets them connect).
CREATE ROLE alice LOGIN IN ROLE refman_editors;
CREATE ROLE bruno LOGIN IN ROLE refman_editors;
CREATE ROLE carla LOGIN IN ROLE refman_readers;
