//! Builds matrix data straight through the store layer (publication and
//! deployment routes belong to other modules): pacticipants, versions with
//! branches and tags, contents, publications, verifications, live
//! deployments and releases.

use accord_broker::db::{self, AnyConnection, PooledConn};
use accord_broker::names::{BranchName, PacticipantName, TagName, VersionNumber};
use accord_broker::schema::{deployed_versions, released_versions};
use accord_broker::store::{
    branches, environments, pacticipants, pacts, tags, verifications, versions,
};
use diesel::prelude::*;

use crate::support::TestApp;

/// A connection to a test app's database.
pub struct Seed {
    conn: PooledConn,
}

impl Seed {
    /// Opens the database of `app`.
    pub fn new(app: &TestApp) -> Seed {
        let pool = db::connect(&app.database.url, 1).expect("connect to the test database");
        Seed {
            conn: pool.get().expect("connection"),
        }
    }

    fn c(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }

    /// A pacticipant, with a main branch if given; returns its id.
    pub fn pacticipant(&mut self, name: &str, main_branch: Option<&str>) -> i64 {
        let attrs = pacticipants::PacticipantAttributes {
            main_branch: main_branch.map(str::to_owned),
            ..Default::default()
        };
        pacticipants::insert(
            self.c(),
            &PacticipantName::parse(name).expect("name"),
            &attrs,
        )
        .expect("pacticipant")
        .id
    }

    /// A version on `branch` (if any) with `tags`; returns its id.
    pub fn version(
        &mut self,
        pacticipant: i64,
        number: &str,
        branch: Option<&str>,
        with_tags: &[&str],
    ) -> i64 {
        let v = versions::insert(
            self.c(),
            pacticipant,
            &VersionNumber::parse(number).expect("number"),
            None,
        )
        .expect("version");
        if let Some(b) = branch {
            let b = branches::find_or_create(
                self.c(),
                pacticipant,
                &BranchName::parse(b).expect("branch"),
            )
            .expect("branch");
            branches::add_version(self.c(), &b, v.id).expect("branch version");
        }
        for t in with_tags {
            tags::add(self.c(), &v, &TagName::parse(t).expect("tag")).expect("tag");
        }
        v.id
    }

    /// Publishes content `text` for (consumer version, provider); returns the content id.
    pub fn publish(
        &mut self,
        consumer: i64,
        consumer_version: i64,
        provider: i64,
        text: &str,
    ) -> i64 {
        let sha = format!("{:0>64}", hex_of(&format!("{consumer}/{provider}/{text}")));
        let content = pacts::find_or_insert_content(
            self.c(),
            &pacts::NewContent {
                sha: &sha,
                consumer_id: consumer,
                provider_id: provider,
                content: "{}",
                interactions_count: 1,
            },
        )
        .expect("content");
        pacts::publish(self.c(), consumer_version, consumer, provider, content.id)
            .expect("publication");
        content.id
    }

    /// Records a verification of `content` by `provider_version`; returns its id.
    pub fn verify(
        &mut self,
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
        &mut self,
        content: i64,
        consumer: i64,
        provider: i64,
        provider_version: i64,
        success: bool,
        pending: bool,
    ) -> i64 {
        verifications::insert(
            self.c(),
            &verifications::NewVerification {
                pact_content_id: content,
                provider_version_id: provider_version,
                consumer_id: consumer,
                provider_id: provider,
                success,
                build_url: None,
                test_results: None,
                verified_by: None,
                findings: "[]".into(),
                wip: false,
                pending,
                selectors: None,
                execution_date: accord_broker::store::now(),
            },
        )
        .expect("verification")
        .id
    }

    /// An environment; returns its id.
    pub fn environment(&mut self, name: &str) -> i64 {
        let attrs = environments::EnvironmentAttributes {
            name: accord_broker::names::EnvironmentName::parse(name).expect("env name"),
            display_name: None,
            production: name == "production",
            contacts: None,
        };
        environments::insert(self.c(), &uuid::Uuid::new_v4().to_string(), &attrs)
            .expect("environment")
            .id
    }

    /// A live deployment of a version to an environment's application instance.
    pub fn deploy(&mut self, pacticipant: i64, version: i64, environment: i64, instance: &str) {
        diesel::insert_into(deployed_versions::table)
            .values((
                deployed_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
                deployed_versions::version_id.eq(version),
                deployed_versions::pacticipant_id.eq(pacticipant),
                deployed_versions::environment_id.eq(environment),
                deployed_versions::application_instance.eq(instance),
                deployed_versions::created_at.eq(accord_broker::store::now()),
            ))
            .execute(self.c())
            .expect("deployment");
    }

    /// Marks every live deployment of a version as undeployed.
    pub fn undeploy(&mut self, version: i64) {
        diesel::update(deployed_versions::table.filter(deployed_versions::version_id.eq(version)))
            .set(deployed_versions::undeployed_at.eq(Some(accord_broker::store::now())))
            .execute(self.c())
            .expect("undeploy");
    }

    /// A supported release of a version in an environment.
    pub fn release(&mut self, pacticipant: i64, version: i64, environment: i64) {
        diesel::insert_into(released_versions::table)
            .values((
                released_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
                released_versions::version_id.eq(version),
                released_versions::pacticipant_id.eq(pacticipant),
                released_versions::environment_id.eq(environment),
                released_versions::created_at.eq(accord_broker::store::now()),
            ))
            .execute(self.c())
            .expect("release");
    }
}

fn hex_of(text: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    format!("{:016x}", h.finish())
}
