//! The verdict of integrations where their versions meet: in each
//! environment (the consumer versions deployed or released there × the
//! provider versions deployed or released there) and on the main branch
//! (the head of the consumer's main branch × the head of the provider's).
//! Shared by the matrix landing (every column) and the home page (whether
//! each environment is consistent).
//!
//! The cost does not grow with integrations × columns: the versions of a
//! column are read once for every pacticipant (one query per environment,
//! two for the main branches), then one `rows::load_between` over the union
//! of every column's versions reads the pacts and the latest verification
//! per (content, provider version) of them all, and each cell is a lookup.

use std::collections::HashMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::resolve::Integration;
use crate::matrix::rows::{self, Row, Scopes};
use crate::matrix::{Details, partial};
use crate::store::matrix::{self as q, VersionRef};
use crate::store::{ID_CHUNK, branches, environments, selection};
use crate::web::matrix::cells::{self, RowView};

/// Where versions meet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The head of each side's main branch (branch name per pacticipant).
    Main(HashMap<i64, String>),
    /// What is deployed or released in this environment.
    Environment { name: String, production: bool },
}

/// A place and the versions of each pacticipant there.
#[derive(Debug, Clone)]
pub struct Column {
    pub place: Place,
    pub versions: HashMap<i64, Vec<VersionRef>>,
}

/// The verdict of one integration in one place.
#[derive(Debug, Clone)]
pub enum Judged {
    /// A side has no version there: the names of those without one.
    Absent(Vec<String>),
    /// Both are there, but no version of the consumer there has a pact
    /// with the provider: nothing to verify.
    NoContract,
    /// Every consumer version × provider version pair there, worst first
    /// (`fail`, pending, `unverified`, `pass`), as matrix rows show them.
    Pairs(Vec<RowView>),
}

impl Judged {
    /// The pairs that are not verified successfully (failed, pending or unverified).
    pub fn problems(&self) -> &[RowView] {
        match self {
            Judged::Pairs(pairs) => {
                let ok = pairs.iter().take_while(|p| p.cell.class != "pass").count();
                &pairs[..ok]
            }
            _ => &[],
        }
    }
}

/// The main branch column and one column per environment (in the
/// environments' order) for these pacticipants.
pub fn columns(
    conn: &mut AnyConnection,
    pacticipant_ids: &[i64],
    main: bool,
) -> Result<Vec<Column>, BrokerError> {
    let mut out = Vec::new();
    if main {
        let heads = branches::main_heads(conn, pacticipant_ids)?;
        let ids: Vec<i64> = heads.values().map(|(_, v)| *v).collect();
        let mut versions: HashMap<i64, Vec<VersionRef>> = HashMap::new();
        for chunk in ids.chunks(ID_CHUNK) {
            for v in q::versions_by_ids(conn, chunk)? {
                versions.entry(v.pacticipant_id).or_default().push(v);
            }
        }
        let names = heads.into_iter().map(|(p, (name, _))| (p, name)).collect();
        out.push(Column {
            place: Place::Main(names),
            versions,
        });
    }
    for env in environments::list(conn)? {
        let mut versions: HashMap<i64, Vec<VersionRef>> = HashMap::new();
        for chunk in pacticipant_ids.chunks(ID_CHUNK) {
            for v in q::versions_in_environment(conn, chunk, env.id)? {
                versions.entry(v.pacticipant_id).or_default().push(v);
            }
        }
        out.push(Column {
            place: Place::Environment {
                name: env.name,
                production: env.production,
            },
            versions,
        });
    }
    Ok(out)
}

/// The verdict of each (consumer, provider) pair in each column:
/// `result[pair][column]`. `names` holds every pacticipant's name.
pub fn judge(
    conn: &mut AnyConnection,
    pairs: &[(i64, i64)],
    names: &HashMap<i64, String>,
    columns: &[Column],
) -> Result<Vec<Vec<Judged>>, BrokerError> {
    let integrations: Vec<Integration> = pairs
        .iter()
        .map(|&(consumer_id, provider_id)| Integration {
            consumer_id,
            provider_id,
            required: true,
        })
        .collect();
    let mut loaded = rows::load_between(conn, &integrations, &scopes(pairs, columns))?;
    partial::mark(conn, &mut loaded)?;
    let found = Found::index(loaded);
    // only failures need their findings read (pending flag, failing
    // layers): a passing cell shows neither, and reading every passing
    // result's findings made the home page 4x slower at 1M verifications
    let failed: Vec<&Row> = found
        .results
        .values()
        .filter(|r| r.success() == Some(false))
        .collect();
    let extras = cells::load_extras(conn, &failed)?;
    let mut contents: Vec<i64> = found.pacts.values().map(|r| r.pact_content_id).collect();
    contents.sort_unstable();
    contents.dedup();
    let mut details = Details {
        names: names.clone(),
        ..Details::default()
    };
    for chunk in contents.chunks(ID_CHUNK) {
        details.shas.extend(selection::shas(conn, chunk)?);
    }
    let view = |row: &Row| cells::row_view(row, &details, &extras);
    Ok(pairs
        .iter()
        .map(|&(c, p)| {
            columns
                .iter()
                .map(|col| found.cell(c, p, col, names, &view))
                .collect()
        })
        .collect())
}

/// Every column's versions of the pairs' pacticipants, merged (each
/// pacticipant restricted to them, none when it has none anywhere).
fn scopes(pairs: &[(i64, i64)], columns: &[Column]) -> Scopes {
    let mut scopes: Scopes = HashMap::new();
    for id in pairs.iter().flat_map(|&(c, p)| [c, p]) {
        let mut all: Vec<VersionRef> = columns
            .iter()
            .flat_map(|col| col.versions.get(&id).into_iter().flatten().cloned())
            .collect();
        all.sort_by_key(|v| v.id);
        all.dedup_by_key(|v| v.id);
        scopes.insert(id, Some(all));
    }
    scopes
}

/// The loaded rows by what a cell looks up.
struct Found {
    /// (consumer version, provider) → a row of its pact (any verification).
    pacts: HashMap<(i64, i64), Row>,
    /// (pact content, provider version) → the row of its latest verification.
    results: HashMap<(i64, i64), Row>,
}

impl Found {
    fn index(loaded: Vec<Row>) -> Found {
        let mut found = Found {
            pacts: HashMap::new(),
            results: HashMap::new(),
        };
        for row in loaded {
            let key = (row.consumer_version.id, row.provider_id);
            found.pacts.entry(key).or_insert_with(|| row.clone());
            if let Some(pv) = &row.provider_version {
                found.results.insert((row.pact_content_id, pv.id), row);
            }
        }
        found
    }

    fn cell(
        &self,
        consumer: i64,
        provider: i64,
        column: &Column,
        names: &HashMap<i64, String>,
        view: &dyn Fn(&Row) -> RowView,
    ) -> Judged {
        let none: Vec<VersionRef> = Vec::new();
        let cvs = column.versions.get(&consumer).unwrap_or(&none);
        let pvs = column.versions.get(&provider).unwrap_or(&none);
        if cvs.is_empty() || pvs.is_empty() {
            let absent = [(consumer, cvs), (provider, pvs)]
                .into_iter()
                .filter(|(_, vs)| vs.is_empty())
                .filter_map(|(id, _)| names.get(&id).cloned())
                .collect();
            return Judged::Absent(absent);
        }
        let mut pairs: Vec<RowView> = Vec::new();
        for cv in cvs {
            let Some(pact) = self.pacts.get(&(cv.id, provider)) else {
                continue;
            };
            for pv in pvs {
                pairs.push(match self.results.get(&(pact.pact_content_id, pv.id)) {
                    Some(row) => view(row),
                    None => view(&unverified(pact, pv)),
                });
            }
        }
        if pairs.is_empty() {
            return Judged::NoContract;
        }
        pairs.sort_by_key(|p| rank(p.cell.class));
        Judged::Pairs(pairs)
    }
}

/// The row of `pact` as `pv` left it: not verified.
fn unverified(pact: &Row, pv: &VersionRef) -> Row {
    Row {
        provider_version: Some(pv.clone()),
        verification: None,
        unverified: Vec::new(),
        ..pact.clone()
    }
}

/// Worst first: failed, pending, unverified, passed.
pub fn rank(class: &str) -> u8 {
    match class {
        "fail" => 0,
        "pending" => 1,
        "unverified" => 2,
        _ => 3,
    }
}
