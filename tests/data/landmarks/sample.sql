-- Sample schema.
CREATE TABLE users (
    id integer PRIMARY KEY,
    name text NOT NULL
);

create or replace view active_users as
    select * from users where active;

CREATE UNIQUE INDEX users_name ON users (name);

INSERT INTO users VALUES (1, 'a');

CREATE FUNCTION add(a integer, b integer) RETURNS integer
    AS 'select a + b;'
    LANGUAGE SQL;
