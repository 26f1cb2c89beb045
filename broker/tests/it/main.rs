//! Integration tests of the broker: a real server on loopback over real
//! SQLite, and real PostgreSQL when `ACCORD_TEST_DATABASE_URL` is set.

mod access;
mod basics;
mod can_i_deploy;
mod concurrency;
mod deployments;
mod environments;
mod for_verification;
mod hostile;
mod integrations;
mod matrix;
mod migrations;
mod pact_docs;
mod pact_view;
mod pacts;
mod pages;
mod pending_wip;
mod publish;
mod publish_merge;
mod publish_refused;
mod raw_http;
mod replicas;
mod route_access;
mod seed;
mod selection_scale;
mod slow_clients;
mod snapshot;
mod support;
mod verification_numbers;
mod verifications;
mod versions;
mod webhooks;
mod what_users_see;
