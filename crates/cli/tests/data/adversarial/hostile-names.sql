-- Quoted PostgreSQL names that must not reach a path or break the CQL.
CREATE TABLE "../../../pwned" (id int PRIMARY KEY, "we ird.col" text, "Quote""d" int);
CREATE TABLE "Order Items" (id int PRIMARY KEY, "select" text, "a|b`c" int);
CREATE TABLE "con" (id int PRIMARY KEY);
