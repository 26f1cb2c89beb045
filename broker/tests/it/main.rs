//! Integration tests of the broker: a real server on loopback over real
//! SQLite, and real PostgreSQL when `ACCORD_TEST_DATABASE_URL` is set.

mod basics;
mod for_verification;
mod migrations;
mod seed;
mod selection_scale;
mod support;
mod verifications;
