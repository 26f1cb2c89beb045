//! Integration tests of the broker: a real server on loopback over real
//! SQLite, and real PostgreSQL when `ACCORD_TEST_DATABASE_URL` is set.

mod basics;
mod migrations;
mod pact_docs;
mod pacts;
mod publish;
mod support;
