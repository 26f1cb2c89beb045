//! Seeding a test broker's database through the store modules (and, for
//! deployed and released versions, a direct insert), so selection, the
//! matrix and can-i-deploy can be tested without the publish and deployment
//! routes. Two levels: by name (creating what is missing) for selection
//! tests, and by id (with branches, tags, verifications) for matrix tests.

use accord_broker::db::{self, AnyConnection, Pool};
use accord_broker::names::{BranchName, EnvironmentName, PacticipantName, TagName, VersionNumber};
use accord_broker::schema::{deployed_versions, released_versions};
use accord_broker::store::{
    self, branches, environments, pacticipants, pacts, tags, verifications, versions,
};
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
        self.version_of(id, number, None, &[])
    }

    /// The version (created if absent) of pacticipant `pacticipant`, put on
    /// `branch` (if any) and tagged with `with_tags`; returns its id.
    pub fn version_of(
        &self,
        pacticipant: i64,
        number: &str,
        branch: Option<&str>,
        with_tags: &[&str],
    ) -> i64 {
        self.with(|conn| {
            let number = VersionNumber::parse(number).expect("number");
            let v = versions::find_or_create(conn, pacticipant, &number).expect("version");
            if let Some(b) = branch {
                add_to_branch(conn, pacticipant, v.id, b);
            }
            for t in with_tags {
                tags::add(conn, &v, &TagName::parse(t).expect("tag")).expect("tag row");
            }
            v.id
        })
    }

    /// Puts a version on a branch.
    pub fn branch(&self, pacticipant: &str, number: &str, branch: &str) {
        let version = self.version(pacticipant, number);
        let pid = self.pacticipant(pacticipant, None);
        self.with(|conn| add_to_branch(conn, pid, version, branch));
    }

    /// Tags a version.
    pub fn tag(&self, pacticipant: &str, number: &str, tag: &str) {
        let pid = self.pacticipant(pacticipant, None);
        self.version_of(pid, number, None, &[tag]);
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
        let sha = sha256(&text);
        self.store_pact(version, consumer_id, provider_id, &sha, &text);
        sha
    }

    /// Publishes a stand-in content named `text` for (consumer version,
    /// provider); returns the content id.
    pub fn publish_content(
        &self,
        consumer: i64,
        consumer_version: i64,
        provider: i64,
        text: &str,
    ) -> i64 {
        let sha = sha256(&format!("{consumer}/{provider}/{text}"));
        self.store_pact(consumer_version, consumer, provider, &sha, "{}")
    }

    fn store_pact(
        &self,
        consumer_version: i64,
        consumer_id: i64,
        provider_id: i64,
        sha: &str,
        text: &str,
    ) -> i64 {
        self.with(|conn| {
            let stored = pacts::find_or_insert_content(
                conn,
                &pacts::NewContent {
                    sha,
                    consumer_id,
                    provider_id,
                    content: text,
                    interactions_count: 1,
                },
            )
            .expect("content");
            pacts::publish(conn, consumer_version, consumer_id, provider_id, stored.id)
                .expect("publication");
            stored.id
        })
    }

    /// Records a verification of `content` by `provider_version`; returns its id.
    pub fn verify(
        &self,
        content: i64,
        consumer: i64,
        provider: i64,
        provider_version: i64,
        success: bool,
    ) -> i64 {
        self.verify_with(
            content,
            consumer,
            provider,
            provider_version,
            success,
            false,
        )
    }

    /// Like `verify`, with the pending flag.
    pub fn verify_with(
        &self,
        content: i64,
        consumer: i64,
        provider: i64,
        provider_version: i64,
        success: bool,
        pending: bool,
    ) -> i64 {
        let keys = (content, consumer, provider, provider_version);
        self.verification(keys, success, pending, "[]")
    }

    /// A failed verification publishing `findings` (a JSON array).
    pub fn verify_failed(
        &self,
        content: i64,
        consumer: i64,
        provider: i64,
        provider_version: i64,
        findings: &str,
    ) -> i64 {
        let keys = (content, consumer, provider, provider_version);
        self.verification(keys, false, false, findings)
    }

    /// Inserts a verification of (content, consumer, provider, provider
    /// version).
    fn verification(
        &self,
        (content, consumer, provider, provider_version): (i64, i64, i64, i64),
        success: bool,
        pending: bool,
        findings: &str,
    ) -> i64 {
        let row = verifications::NewVerification {
            pact_content_id: content,
            provider_version_id: provider_version,
            consumer_id: consumer,
            provider_id: provider,
            success,
            build_url: None,
            test_results: None,
            verified_by: None,
            findings: findings.into(),
            wip: false,
            pending,
            selectors: None,
            execution_date: store::now(),
            pact_view: false,
            declarations: None,
        };
        self.with(|conn| verifications::insert(conn, &row))
            .expect("verification")
            .id
    }

    /// An environment (created if absent); returns its id.
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
        self.deploy_version(pid, version, env_id, instance);
    }

    /// A live deployment of a version to an environment's application instance.
    pub fn deploy_version(&self, pacticipant: i64, version: i64, environment: i64, instance: &str) {
        self.with(|conn| {
            diesel::insert_into(deployed_versions::table)
                .values((
                    deployed_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
                    deployed_versions::version_id.eq(version),
                    deployed_versions::pacticipant_id.eq(pacticipant),
                    deployed_versions::environment_id.eq(environment),
                    deployed_versions::application_instance.eq(instance),
                    deployed_versions::created_at.eq(store::now()),
                ))
                .execute(conn)
                .expect("deployment");
        });
    }

    /// Marks every live deployment of a version as undeployed.
    pub fn undeploy(&self, version: i64) {
        self.with(|conn| {
            diesel::update(
                deployed_versions::table.filter(deployed_versions::version_id.eq(version)),
            )
            .set(deployed_versions::undeployed_at.eq(Some(store::now())))
            .execute(conn)
            .expect("undeploy");
        });
    }

    /// Records a supported release (test-only insert); `ended` ends support.
    pub fn release(&self, pacticipant: &str, number: &str, env: &str, ended: bool) {
        let (version, pid, env_id) = self.live_keys(pacticipant, number, env);
        self.insert_release(pid, version, env_id, ended);
    }

    /// A supported release of a version in an environment.
    pub fn release_version(&self, pacticipant: i64, version: i64, environment: i64) {
        self.insert_release(pacticipant, version, environment, false);
    }

    fn insert_release(&self, pacticipant: i64, version: i64, environment: i64, ended: bool) {
        self.with(|conn| {
            diesel::insert_into(released_versions::table)
                .values((
                    released_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
                    released_versions::version_id.eq(version),
                    released_versions::pacticipant_id.eq(pacticipant),
                    released_versions::environment_id.eq(environment),
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

fn add_to_branch(conn: &mut AnyConnection, pacticipant: i64, version: i64, branch: &str) {
    let b = branches::find_or_create(
        conn,
        pacticipant,
        &BranchName::parse(branch).expect("branch"),
    )
    .expect("branch row");
    branches::add_version(conn, &b, version).expect("branch version");
}

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}
