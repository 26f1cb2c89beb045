//! Integration tests of the broker: a real server on loopback over real
//! SQLite, and real PostgreSQL when `ACCORD_TEST_DATABASE_URL` is set.

mod access;
mod basics;
mod deployments;
mod environments;
mod integrations;
mod migrations;
mod replicas;
mod support;
mod versions;
