//! Seeding a test broker's database through the store modules (and, for
//! deployed and released versions, a direct insert), so selection can be
//! tested before the publish and deployment routes exist.

use accord_broker::db::{self, AnyConnection, Pool};
use accord_broker::names::{BranchName, EnvironmentName, PacticipantName, TagName, VersionNumber};
use accord_broker::schema::{deployed_versions, released_versions};
use accord_broker::store::{self, branches, environments, pacticipants, pacts, tags, versions};
use diesel::prelude::*;
use sha2::{Digest, Sha256};

use crate::support::TestApp;

/// A connection to the database behind a test broker.
pub struct Seed {
    pool: Pool,
}

impl Seed {
    /// Connects to `app`'s database.
    pub fn new(app: &TestApp) -> Seed {
        Seed {
            pool: db::connect(&app.database.url, 1).expect("seed connects"),
        }
    }

    /// Runs `f` on a connection.
    pub fn with<T>(&self, f: impl FnOnce(&mut AnyConnection) -> T) -> T {
        let mut conn = self.pool.get().expect("seed connection");
        f(&mut conn)
    }

    /// The pacticipant (created if absent), with `main_branch` set if given.
    pub fn pacticipant(&self, name: &str, main_branch: Option<&str>) -> i64 {
        self.with(|conn| {
            let p =
                pacticipants::find_or_create(conn, &PacticipantName::parse(name).expect("name"))
                    .expect("pacticipant");
            if let Some(branch) = main_branch {
                let attrs = pacticipants::PacticipantAttributes {
                    main_branch: Some(branch.into()),
                    ..Default::default()
                };
                pacticipants::update_attributes(conn, p.id, &attrs).expect("main branch");
            }
            p.id
        })
    }

    /// The version (created if absent).
    pub fn version(&self, pacticipant: &str, number: &str) -> i64 {
        let id = self.pacticipant(pacticipant, None);
        self.with(|conn| {
            versions::find_or_create(conn, id, &VersionNumber::parse(number).expect("number"))
                .expect("version")
                .id
        })
    }

    /// Puts a version on a branch.
    pub fn branch(&self, pacticipant: &str, number: &str, branch: &str) {
        let version = self.version(pacticipant, number);
        let pid = self.pacticipant(pacticipant, None);
        self.with(|conn| {
            let b =
                branches::find_or_create(conn, pid, &BranchName::parse(branch).expect("branch"))
                    .expect("branch row");
            branches::add_version(conn, &b, version).expect("branch version");
        });
    }

    /// Tags a version.
    pub fn tag(&self, pacticipant: &str, number: &str, tag: &str) {
        let version = self.version(pacticipant, number);
        self.with(|conn| {
            let v = versions::find_by_id(conn, version)
                .expect("query")
                .expect("version");
            tags::add(conn, &v, &TagName::parse(tag).expect("tag")).expect("tag row");
        });
    }

    /// Publishes a contract whose content is identified by `content` (same
    /// `content` ⇒ same sha); returns the sha.
    pub fn publish(&self, consumer: &str, number: &str, provider: &str, content: &str) -> String {
        let version = self.version(consumer, number);
        let consumer_id = self.pacticipant(consumer, None);
        let provider_id = self.pacticipant(provider, None);
        let text = serde_json::json!({
            "consumer": {"name": consumer}, "provider": {"name": provider},
            "interactions": [{"description": content}],
            "metadata": {"pactSpecification": {"version": "4.0"}}
        })
        .to_string();
        let sha = hex::encode(Sha256::digest(text.as_bytes()));
        self.with(|conn| {
            let stored = pacts::find_or_insert_content(
                conn,
                &pacts::NewContent {
                    sha: &sha,
                    consumer_id,
                    provider_id,
                    content: &text,
                    interactions_count: 1,
                },
            )
            .expect("content");
            pacts::publish(conn, version, consumer_id, provider_id, stored.id)
                .expect("publication");
        });
        sha
    }

    /// An environment.
    pub fn environment(&self, name: &str) -> i64 {
        self.with(|conn| {
            if let Some(e) = environments::find_by_name(conn, name).expect("query") {
                return e.id;
            }
            let attrs = environments::EnvironmentAttributes {
                name: EnvironmentName::parse(name).expect("env"),
                display_name: None,
                production: name == "production",
                contacts: None,
            };
            environments::insert(conn, &uuid::Uuid::new_v4().to_string(), &attrs)
                .expect("environment")
                .id
        })
    }

    /// Records a live deployment (test-only insert).
    pub fn deploy(&self, pacticipant: &str, number: &str, env: &str, instance: &str) {
        let (version, pid, env_id) = self.live_keys(pacticipant, number, env);
        self.with(|conn| {
            diesel::insert_into(deployed_versions::table)
                .values((
                    deployed_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
                    deployed_versions::version_id.eq(version),
                    deployed_versions::pacticipant_id.eq(pid),
                    deployed_versions::environment_id.eq(env_id),
                    deployed_versions::application_instance.eq(instance),
                    deployed_versions::created_at.eq(store::now()),
                ))
                .execute(conn)
                .expect("deployment");
        });
    }

    /// Records a supported release (test-only insert); `ended` ends support.
    pub fn release(&self, pacticipant: &str, number: &str, env: &str, ended: bool) {
        let (version, pid, env_id) = self.live_keys(pacticipant, number, env);
        self.with(|conn| {
            diesel::insert_into(released_versions::table)
                .values((
                    released_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
                    released_versions::version_id.eq(version),
                    released_versions::pacticipant_id.eq(pid),
                    released_versions::environment_id.eq(env_id),
                    released_versions::created_at.eq(store::now()),
                    released_versions::support_ended_at.eq(ended.then(store::now)),
                ))
                .execute(conn)
                .expect("release");
        });
    }

    fn live_keys(&self, pacticipant: &str, number: &str, env: &str) -> (i64, i64, i64) {
        (
            self.version(pacticipant, number),
            self.pacticipant(pacticipant, None),
            self.environment(env),
        )
    }

    /// Whether `pacticipant` has a version `number`.
    pub fn has_version(&self, pacticipant: &str, number: &str) -> bool {
        self.with(|conn| {
            let Some(p) = pacticipants::find_by_name(conn, pacticipant).expect("query") else {
                return false;
            };
            versions::find_by_number(conn, p.id, number)
                .expect("query")
                .is_some()
        })
    }
}
