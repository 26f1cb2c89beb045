//! Seeds a realistic broker database through the store layer: 100
//! pacticipants (20 providers, 80 consumers with 3 providers each), 20,000
//! versions on main and feature branches with tags, 48,000 publications of
//! 12,000 contents, 1,000,000 verifications (each content verified about
//! 80 times by ~20 provider versions), live and past deployments in three
//! environments (some with two application instances) and releases.

use accord_broker::db::AnyConnection;
use accord_broker::names::{BranchName, EnvironmentName, PacticipantName, TagName, VersionNumber};
use accord_broker::schema::{deployed_versions, released_versions};
use accord_broker::store::{
    self, StoreError, branches, environments, pacticipants, pacts, tags, verifications, versions,
};
use diesel::prelude::*;

pub const PROVIDERS: i64 = 20;
pub const CONSUMERS: i64 = 80;
pub const VERSIONS: i64 = 200;
pub const VERIFICATIONS: usize = 1_000_000;
pub const ENVIRONMENTS: [&str; 3] = ["development", "staging", "production"];

/// Deterministic pseudo-random numbers (no seed file, same data every run).
#[derive(Debug)]
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }
    pub fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// The providers consumer `c` (0-based) has pacts with.
pub fn providers_of(c: i64) -> [i64; 3] {
    [
        (c * 7) % PROVIDERS,
        (c * 7 + 3) % PROVIDERS,
        (c * 7 + 11) % PROVIDERS,
    ]
}

pub fn name(i: i64) -> String {
    if i < PROVIDERS {
        format!("provider-{i:02}")
    } else {
        format!("consumer-{:02}", i - PROVIDERS)
    }
}

pub fn number(v: i64) -> String {
    format!("1.{}.{v}-{:07x}", v / 50, (v * 2654435761) % 0xfffffff)
}

type Ids = Vec<Vec<i64>>;

/// Seeds everything; returns (pacticipant ids, version ids per pacticipant).
pub fn seed(conn: &mut AnyConnection) -> Result<(Vec<i64>, Ids), StoreError> {
    let t = std::time::Instant::now();
    let (pids, vids) = conn.transaction(seed_versions)?;
    eprintln!(
        "seeded 100 pacticipants, 20,000 versions, branches and tags in {:?}",
        t.elapsed()
    );
    let contents = conn.transaction(|c| seed_pacts(c, &pids, &vids))?;
    eprintln!(
        "seeded 48,000 publications of {} contents in {:?}",
        contents.len(),
        t.elapsed()
    );
    seed_verifications(conn, &pids, &vids, &contents)?;
    eprintln!("seeded {VERIFICATIONS} verifications in {:?}", t.elapsed());
    conn.transaction(|c| seed_deployments(c, &pids, &vids))?;
    eprintln!("seeded deployments and releases in {:?}", t.elapsed());
    Ok((pids, vids))
}

fn seed_versions(c: &mut AnyConnection) -> Result<(Vec<i64>, Ids), StoreError> {
    let (mut pids, mut vids) = (Vec::new(), Vec::new());
    for i in 0..PROVIDERS + CONSUMERS {
        let attrs = pacticipants::PacticipantAttributes {
            main_branch: Some("main".into()),
            ..Default::default()
        };
        let p = pacticipants::insert(c, &PacticipantName::parse(&name(i)).expect("name"), &attrs)?;
        let main = branches::find_or_create(c, p.id, &BranchName::parse("main").expect("branch"))?;
        let mut ids = Vec::new();
        for v in 0..VERSIONS {
            let version = versions::insert(
                c,
                p.id,
                &VersionNumber::parse(&number(v)).expect("number"),
                None,
            )?;
            let branch = if v % 5 == 4 {
                branches::find_or_create(
                    c,
                    p.id,
                    &BranchName::parse(&format!("feat-{}", v / 20)).expect("b"),
                )?
            } else {
                main.clone()
            };
            branches::add_version(c, &branch, version.id)?;
            tags::add(c, &version, &TagName::parse(&branch.name).expect("tag"))?;
            ids.push(version.id);
        }
        pids.push(p.id);
        vids.push(ids);
    }
    Ok((pids, vids))
}

/// (content id, consumer index, provider index, epoch)
type Content = (i64, i64, i64, i64);

fn seed_pacts(c: &mut AnyConnection, pids: &[i64], vids: &Ids) -> Result<Vec<Content>, StoreError> {
    let mut contents = Vec::new();
    for ci in PROVIDERS..PROVIDERS + CONSUMERS {
        for pi in providers_of(ci - PROVIDERS) {
            let mut current = None;
            for v in 0..VERSIONS {
                let epoch = v / 4;
                if current.is_none_or(|(e, _)| e != epoch) {
                    let sha = format!("{ci:04}{pi:04}{epoch:04}{:052}", 0);
                    let body = format!("{{\"consumer\":{ci},\"provider\":{pi},\"epoch\":{epoch}}}");
                    let content = pacts::find_or_insert_content(
                        c,
                        &pacts::NewContent {
                            sha: &sha,
                            consumer_id: pids[ci as usize],
                            provider_id: pids[pi as usize],
                            content: &body,
                            interactions_count: 3,
                        },
                    )?;
                    contents.push((content.id, ci, pi, epoch));
                    current = Some((epoch, content.id));
                }
                let content_id = current.map(|(_, id)| id).unwrap_or_default();
                pacts::publish(
                    c,
                    vids[ci as usize][v as usize],
                    pids[ci as usize],
                    pids[pi as usize],
                    content_id,
                )?;
            }
        }
    }
    Ok(contents)
}

fn seed_verifications(
    conn: &mut AnyConnection,
    pids: &[i64],
    vids: &Ids,
    contents: &[Content],
) -> Result<(), StoreError> {
    let mut rng = Lcg::new(7);
    let per_content = VERIFICATIONS / contents.len();
    let mut extra = VERIFICATIONS - per_content * contents.len();
    let mut batch = Vec::with_capacity(1000);
    let at = store::now();
    for &(content, ci, pi, epoch) in contents {
        let count = per_content + usize::from(extra > 0);
        extra = extra.saturating_sub(1);
        for k in 0..count {
            // provider versions around the consumer's epoch: ~20 of them, each verifying several times
            let pv = (epoch * 4 + (k as i64 % 20) - 4).clamp(0, VERSIONS - 1);
            batch.push(verifications::NewVerification {
                pact_content_id: content,
                provider_version_id: vids[pi as usize][pv as usize],
                consumer_id: pids[ci as usize],
                provider_id: pids[pi as usize],
                success: rng.next(10) != 0,
                build_url: Some(format!("https://ci.example/build/{k}")),
                test_results: None,
                verified_by: Some("{\"implementation\":\"accord\"}".into()),
                findings: "[]".into(),
                wip: false,
                pending: false,
                selectors: None,
                execution_date: at,
                pact_view: false,
                declarations: None,
            });
            if batch.len() == 1000 {
                conn.transaction(|c| verifications::insert_many(c, &batch))?;
                batch.clear();
            }
        }
    }
    if !batch.is_empty() {
        conn.transaction(|c| verifications::insert_many(c, &batch))?;
    }
    Ok(())
}

fn seed_deployments(c: &mut AnyConnection, pids: &[i64], vids: &Ids) -> Result<(), StoreError> {
    let mut rng = Lcg::new(11);
    for (e, env) in ENVIRONMENTS.iter().enumerate() {
        let attrs = environments::EnvironmentAttributes {
            name: EnvironmentName::parse(env).expect("env"),
            display_name: None,
            production: *env == "production",
            contacts: None,
        };
        let env_id = environments::insert(
            c,
            &format!("00000000-0000-0000-0000-00000000000{e}"),
            &attrs,
        )?
        .id;
        for (i, &pid) in pids.iter().enumerate() {
            // history: earlier deployments, now undeployed
            for h in 0..10 {
                let v = vids[i][(100 + h * 8) as usize];
                deploy(c, pid, v, env_id, "", true)?;
            }
            let newest = VERSIONS - 1 - (2 - e as i64) * 8 - rng.next(6) as i64;
            deploy(c, pid, vids[i][newest as usize], env_id, "", false)?;
            if i % 4 == 0 {
                deploy(
                    c,
                    pid,
                    vids[i][(newest - 3) as usize],
                    env_id,
                    "canary",
                    false,
                )?;
            }
            if i % 5 == 0 && *env == "production" {
                for (k, v) in [150usize, 170, 185].into_iter().enumerate() {
                    release(c, pid, vids[i][v], env_id, k == 0)?;
                }
            }
        }
    }
    Ok(())
}

fn deploy(
    c: &mut AnyConnection,
    pid: i64,
    version: i64,
    env: i64,
    instance: &str,
    ended: bool,
) -> Result<(), StoreError> {
    let at = store::now();
    diesel::insert_into(deployed_versions::table)
        .values((
            deployed_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
            deployed_versions::version_id.eq(version),
            deployed_versions::pacticipant_id.eq(pid),
            deployed_versions::environment_id.eq(env),
            deployed_versions::application_instance.eq(instance),
            deployed_versions::created_at.eq(at),
            deployed_versions::undeployed_at.eq(ended.then_some(at)),
        ))
        .execute(c)?;
    Ok(())
}

fn release(
    c: &mut AnyConnection,
    pid: i64,
    version: i64,
    env: i64,
    ended: bool,
) -> Result<(), StoreError> {
    let at = store::now();
    diesel::insert_into(released_versions::table)
        .values((
            released_versions::uuid.eq(uuid::Uuid::new_v4().to_string()),
            released_versions::version_id.eq(version),
            released_versions::pacticipant_id.eq(pid),
            released_versions::environment_id.eq(env),
            released_versions::created_at.eq(at),
            released_versions::support_ended_at.eq(ended.then_some(at)),
        ))
        .execute(c)?;
    Ok(())
}
