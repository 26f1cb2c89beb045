//! One matrix row as the pages show it: both sides with their branches,
//! tags and environments, the verdict as words (colour only repeats it),
//! the layers a verification's findings name with their reason codes, and
//! the links to the verification and contract pages. Shared by the matrix,
//! the candidate and the can-i-deploy pages.

use std::collections::HashMap;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::Details;
use crate::matrix::rows::Row;
use crate::store::matrix::VersionRef;
use crate::store::{StoreError, matrix_details, selection, verifications};
use crate::web::seg;

/// The contract layers, in the order marks are shown.
const LAYERS: [&str; 8] = [
    "declaration",
    "schema",
    "protocol",
    "authorization",
    "behavior",
    "temporal",
    "trace",
    "compatibility",
];

/// The one word every page uses for a verification that failed while the
/// pact was pending for the provider (the matrix, the candidate, the home
/// page, the network graph and the legends).
pub const PENDING_WORD: &str = "fail (pending)";

/// What [`PENDING_WORD`] means, for the legends.
pub const PENDING_MEANING: &str = "the verification failed while the pact was pending for the provider: it does not fail the provider's build, but the consumer cannot deploy with it";

/// A layer some findings name, with their reason codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerMark {
    pub layer: String,
    /// The reason codes found on this layer, comma-separated.
    pub codes: String,
}

/// What a page shows of a verification beyond the matrix row: its pending
/// flag and its findings by layer.
#[derive(Debug, Clone, Default)]
pub struct Extra {
    pub pending: bool,
    pub layers: Vec<LayerMark>,
}

/// The verdict cell of a row.
#[derive(Debug, Clone)]
pub struct Cell {
    /// `pass`, `fail`, `pending` or `unverified` (the CSS class).
    pub class: &'static str,
    /// The verdict in words.
    pub text: &'static str,
    /// The whole statement for a screen reader.
    pub label: String,
    /// Why a success does not count, when it does not.
    pub note: String,
    pub layers: Vec<LayerMark>,
    pub verification_href: Option<String>,
    pub contract_href: String,
}

/// One side of a row: a pacticipant and a version.
#[derive(Debug, Clone)]
pub struct Side {
    pub name: String,
    pub href: String,
    /// None: no version (an unverified row's provider).
    pub version: Option<String>,
    /// Branches, tags and environments of the version, for reading.
    pub labels: String,
}

/// A row as pages show it.
#[derive(Debug, Clone)]
pub struct RowView {
    pub consumer: Side,
    pub provider: Side,
    pub cell: Cell,
}

/// The findings and pending flags of the rows' verifications, by id (one query).
pub fn load_extras(
    conn: &mut AnyConnection,
    rows: &[&Row],
) -> Result<HashMap<i64, Extra>, BrokerError> {
    let mut ids: Vec<i64> = rows
        .iter()
        .filter_map(|r| r.verification.as_ref().map(|v| v.id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut extras = HashMap::new();
    for (id, pending, findings) in verifications::findings_of(conn, &ids)? {
        let layers = layer_marks(&findings).map_err(|source| StoreError::CorruptJson {
            what: "verification findings",
            source,
        })?;
        extras.insert(id, Extra { pending, layers });
    }
    Ok(extras)
}

/// Layer marks of a stored findings array, in `LAYERS` order.
pub fn layer_marks(findings: &str) -> Result<Vec<LayerMark>, serde_json::Error> {
    let list: Vec<serde_json::Value> = serde_json::from_str(findings)?;
    Ok(marks_of(&list))
}

/// Layer marks of findings (a verification's `findings`), in `LAYERS`
/// order: what `accord can-i-deploy` prints of a blocking row.
pub fn marks_of(list: &[serde_json::Value]) -> Vec<LayerMark> {
    let mut by_layer: Vec<(usize, String, Vec<String>)> = Vec::new();
    for f in list {
        let layer = f["layer"].as_str().unwrap_or("unknown");
        let code = f["reasonCode"].as_str().unwrap_or_default().to_owned();
        let rank = LAYERS
            .iter()
            .position(|l| *l == layer)
            .unwrap_or(LAYERS.len());
        match by_layer.iter_mut().find(|(_, l, _)| l == layer) {
            Some((_, _, codes)) if !codes.contains(&code) => codes.push(code),
            Some(_) => {}
            None => by_layer.push((rank, layer.to_owned(), vec![code])),
        }
    }
    by_layer.sort_by_key(|(rank, _, _)| *rank);
    by_layer
        .into_iter()
        .map(|(_, layer, codes)| LayerMark {
            layer,
            codes: codes.join(", "),
        })
        .collect()
}

/// Names, branches, tags, environments and shas of these rows (what
/// `matrix::run` loads for the rows it shows), in five queries.
pub fn load_details(conn: &mut AnyConnection, rows: &[&Row]) -> Result<Details, BrokerError> {
    let mut details = Details::default();
    let mut ids: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.consumer_id, r.provider_id])
        .collect();
    let mut versions: Vec<i64> = rows
        .iter()
        .flat_map(|r| {
            std::iter::once(r.consumer_version.id).chain(r.provider_version.as_ref().map(|v| v.id))
        })
        .collect();
    let mut contents: Vec<i64> = rows.iter().map(|r| r.pact_content_id).collect();
    for list in [&mut ids, &mut versions, &mut contents] {
        list.sort_unstable();
        list.dedup();
    }
    if rows.is_empty() {
        return Ok(details);
    }
    details
        .names
        .extend(matrix_details::pacticipant_names(conn, &ids)?);
    for (v, name) in matrix_details::branch_names(conn, &versions)? {
        details.branches.entry(v).or_default().push(name);
    }
    for (v, name) in matrix_details::tag_names(conn, &versions)? {
        details.tags.entry(v).or_default().push(name);
    }
    for (v, name, deployed) in matrix_details::live_environments(conn, &versions)? {
        details
            .environments
            .entry(v)
            .or_default()
            .push((name, deployed));
    }
    details.shas.extend(selection::shas(conn, &contents)?);
    Ok(details)
}

/// The row as shown.
pub fn row_view(row: &Row, details: &Details, extras: &HashMap<i64, Extra>) -> RowView {
    let name = |id: i64| details.names.get(&id).cloned().unwrap_or_default();
    let consumer = side(details, name(row.consumer_id), Some(&row.consumer_version));
    let provider = side(
        details,
        name(row.provider_id),
        row.provider_version.as_ref(),
    );
    let cell = cell(row, details, extras, &consumer, &provider);
    RowView {
        consumer,
        provider,
        cell,
    }
}

/// One side as shown: `name` at `version`, with the version's labels.
pub fn side(details: &Details, name: String, version: Option<&VersionRef>) -> Side {
    Side {
        href: format!("/ui/pacticipants/{}", seg(&name)),
        version: version.map(|v| v.number.clone()),
        labels: version.map(|v| labels(details, v.id)).unwrap_or_default(),
        name,
    }
}

/// "branch main · tag prod · deployed to production".
pub fn labels(details: &Details, version_id: i64) -> String {
    let mut parts: Vec<String> = Vec::new();
    for b in details.branches.get(&version_id).into_iter().flatten() {
        parts.push(format!("branch {b}"));
    }
    for t in details.tags.get(&version_id).into_iter().flatten() {
        parts.push(format!("tag {t}"));
    }
    for (env, deployed) in details.environments.get(&version_id).into_iter().flatten() {
        let how = if *deployed {
            "deployed to"
        } else {
            "released to"
        };
        parts.push(format!("{how} {env}"));
    }
    parts.join(" · ")
}

fn cell(
    row: &Row,
    details: &Details,
    extras: &HashMap<i64, Extra>,
    consumer: &Side,
    provider: &Side,
) -> Cell {
    let extra = row
        .verification
        .as_ref()
        .and_then(|v| extras.get(&v.id))
        .cloned()
        .unwrap_or_default();
    let (class, text) = match row.success() {
        Some(true) => ("pass", "passed"),
        Some(false) if extra.pending => ("pending", PENDING_WORD),
        Some(false) => ("fail", "failed"),
        None => ("unverified", "unverified"),
    };
    let (p, c) = (seg(&provider.name), seg(&consumer.name));
    let cv = consumer.version.clone().unwrap_or_default();
    let verification_href = match (&row.verification, details.shas.get(&row.pact_content_id)) {
        (Some(v), Some(sha)) => Some(format!(
            "/ui/pacts/provider/{p}/consumer/{c}/pact-version/{sha}/verification-results/{}",
            v.number
        )),
        _ => None,
    };
    let note = if row.partial() {
        format!(
            "Only the Pact view was verified; unverified: {}",
            crate::contract::pact_view::describe(&row.unverified)
        )
    } else if extra.pending && row.success() == Some(false) {
        "The pact was pending for the provider: this failure does not block the provider, it blocks the consumer".to_owned()
    } else {
        String::new()
    };
    let label = match &provider.version {
        Some(pv) => format!("{text}: {} {cv} with {} {pv}", consumer.name, provider.name),
        None => format!(
            "{text}: {} {cv} with {}, no verification",
            consumer.name, provider.name
        ),
    };
    Cell {
        class,
        text,
        label,
        note,
        layers: extra.layers,
        verification_href,
        contract_href: format!("/ui/pacts/provider/{p}/consumer/{c}/version/{}", seg(&cv)),
    }
}

/// `1234567` → "1,234,567".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_become_one_mark_per_layer_in_layer_order() {
        let marks = layer_marks(
            r#"[{"layer":"temporal","reasonCode":"ACK_DEADLINE_MISSED"},
                {"layer":"schema","reasonCode":"RESPONSE_MISMATCH"},
                {"layer":"schema","reasonCode":"MISSING_FIELD"},
                {"layer":"schema","reasonCode":"RESPONSE_MISMATCH"}]"#,
        )
        .expect("json");
        let shown: Vec<(&str, &str)> = marks
            .iter()
            .map(|m| (m.layer.as_str(), m.codes.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                ("schema", "RESPONSE_MISMATCH, MISSING_FIELD"),
                ("temporal", "ACK_DEADLINE_MISSED")
            ]
        );
        assert!(layer_marks("[]").expect("json").is_empty());
        assert!(layer_marks("not json").is_err());
    }

    #[test]
    fn big_numbers_get_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
