//! `accord coverage --pacticipant P [--version V] [--require-coverage]`:
//! the coverage report of a provider version, read from
//! `GET /pacticipants/{p}/coverage`: a table of every declared operation
//! (risk class, the case kinds it needs and has, its verdict), then every
//! gap, then the interactions tagged `incident` that stay.

use clap::Args;
use serde_json::Value;

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, segment};

/// Show which declared operations the live consumer contracts cover.
#[derive(Debug, Args)]
pub struct CoverageArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    /// The provider (pacticipant) name.
    #[arg(long)]
    pacticipant: String,
    /// Its version; default: its newest version that declares an Agent Card or MCP tools.
    #[arg(long = "version", value_name = "VERSION")]
    provider_version: Option<String>,
    /// Exit 1 when any gap remains (the gate for CI and promotions).
    #[arg(long)]
    require_coverage: bool,
    /// text (a table, the gaps, the kept incident cases) or json (the broker's body).
    #[arg(long, short = 'o', value_parser = ["text", "json"], default_value = "text")]
    output: String,
}

/// Runs `accord coverage`.
pub fn run(args: CoverageArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    let mut path = format!("/pacticipants/{}/coverage", segment(&args.pacticipant));
    if let Some(v) = &args.provider_version {
        path.push_str(&format!("?version={}", segment(v)));
    }
    let body = client.get(&path)?;
    if args.output == "json" {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else {
        print!("{}", render(&body));
    }
    let gaps = list(&body, "gaps").len();
    Ok(if args.require_coverage && gaps > 0 {
        Outcome::Fail
    } else {
        Outcome::Pass
    })
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v[key].as_array().map_or(&[][..], Vec::as_slice)
}

fn joined(v: &Value, key: &str) -> String {
    let words: Vec<&str> = list(v, key).iter().filter_map(Value::as_str).collect();
    if words.is_empty() {
        "-".to_owned()
    } else {
        words.join(",")
    }
}

/// The text form: a table, the gaps, the kept incident cases.
fn render(body: &Value) -> String {
    let ops = list(body, "operations");
    let gaps = list(body, "gaps");
    let covered = |o: &Value| {
        !gaps
            .iter()
            .any(|g| g["kind"] == o["kind"] && g["operation"] == o["name"])
    };
    let mut rows = vec![[
        "OPERATION".to_owned(),
        "RISK".into(),
        "NEEDS".into(),
        "HAS".into(),
        "CONSUMERS".into(),
        "VERDICT".into(),
    ]];
    for o in ops {
        rows.push([
            format!("{} {}", text(o, "kind"), text(o, "name")),
            text(o, "risk").to_owned(),
            joined(o, "required"),
            joined(o, "present"),
            joined(o, "consumers"),
            if covered(o) { "covered" } else { "GAP" }.to_owned(),
        ]);
    }
    let mut out = format!(
        "Coverage of {} {}: {} operation(s), {} gap(s)\n",
        text(body, "provider"),
        text(body, "version"),
        ops.len(),
        gaps.len()
    );
    out.push_str(&table(&rows));
    if !gaps.is_empty() {
        out.push_str("Gaps:\n");
    }
    for g in gaps {
        out.push_str(&format!("  {}  {}\n", text(g, "code"), text(g, "detail")));
    }
    let kept = list(body, "kept");
    if !kept.is_empty() {
        out.push_str("Incident cases kept:\n");
    }
    for k in kept {
        let on = format!("{} {}", text(k, "kind"), text(k, "operation"));
        out.push_str(&format!(
            "  {}: {}  ({})\n",
            text(k, "consumer"),
            text(k, "interaction"),
            on.trim()
        ));
    }
    out
}

/// Left-aligned columns, two spaces apart.
fn table(rows: &[[String; 6]]) -> String {
    let mut widths = [0usize; 6];
    for r in rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}
