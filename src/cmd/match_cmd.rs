//! `accord match request|response|message`: compare one expected Pact
//! part (with its matching rules) with an actual one.

use std::path::{Path, PathBuf};

use accord_dsl::PactSpec;
use accord_dsl::matching::{Mismatch, match_message, match_request_for, match_response};
use accord_dsl::pact::parts::{message_from_json_at, request_from_json_at, response_from_json_at};
use clap::{Args, ValueEnum};
use serde_json::Value;

use crate::cmd::Outcome;
use crate::cmd::files::read_json;

/// Arguments of `accord match` (the help text comes from the `Match`
/// variant's doc and [`AFTER_HELP`]).
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub struct MatchArgs {
    /// What the files hold.
    #[arg(value_enum)]
    pub part: Part,
    /// Pact specification version of both files: 1, 1.1, 2, 3 or 4.
    #[arg(long, short = 's', value_name = "VERSION", value_parser = parse_spec)]
    pub specification: PactSpec,
    /// The expected part, with its matching rules (JSON file).
    #[arg(long, value_name = "FILE")]
    pub expected: PathBuf,
    /// The actual part (JSON file).
    #[arg(long, value_name = "FILE")]
    pub actual: PathBuf,
    /// Print the mismatches as a JSON array instead of lines.
    #[arg(long)]
    pub json: bool,
}

const AFTER_HELP: &str = "\
Both files hold the part in the JSON shape of the given specification version, as the
pact-specification test cases write them; the expected one may carry matchingRules.
A test-case file with top-level `expected` and `actual` keys is also accepted (the
same file may be given to both options).

Exit codes: 0 match, 1 mismatch, 2 unreadable or invalid file.

Example:
  accord match response --specification 3 --expected expected.json --actual actual.json --json";

/// The kind of Pact part compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Part {
    /// An HTTP request (method, path, query, headers, body).
    Request,
    /// An HTTP response (status, headers, body).
    Response,
    /// A message (contents and metadata).
    Message,
}

fn parse_spec(s: &str) -> Result<PactSpec, String> {
    s.parse::<PactSpec>().map_err(|e| e.to_string())
}

/// Runs `accord match`.
pub fn run(args: MatchArgs) -> anyhow::Result<Outcome> {
    let (expected, e_at) = read_part(&args.expected, "expected")?;
    let (actual, a_at) = read_part(&args.actual, "actual")?;
    let spec = args.specification;
    let (e_origin, a_origin) = (
        args.expected.display().to_string(),
        args.actual.display().to_string(),
    );
    let mismatches = match args.part {
        Part::Request => match_request_for(
            &request_from_json_at(&expected, spec, &e_origin, e_at)?,
            &request_from_json_at(&actual, spec, &a_origin, a_at)?,
            spec,
        ),
        Part::Response => match_response(
            &response_from_json_at(&expected, spec, &e_origin, e_at)?,
            &response_from_json_at(&actual, spec, &a_origin, a_at)?,
        ),
        Part::Message => match_message(
            &message_from_json_at(&expected, spec, &e_origin, e_at)?,
            &message_from_json_at(&actual, spec, &a_origin, a_at)?,
        ),
    };
    print_mismatches(&mismatches, args.json)?;
    Ok(if mismatches.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail
    })
}

/// Reads a JSON file; a test-case file yields its `side` part.
fn read_part(path: &Path, side: &'static str) -> anyhow::Result<(Value, &'static str)> {
    let value = read_json(path)?;
    let is_case = value.get("expected").is_some_and(Value::is_object)
        && value.get("actual").is_some_and(Value::is_object);
    Ok(match (is_case, side) {
        (true, "expected") => (value["expected"].clone(), "$.expected"),
        (true, _) => (value["actual"].clone(), "$.actual"),
        (false, _) => (value, "$"),
    })
}

fn print_mismatches(mismatches: &[Mismatch], json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(mismatches)?);
        return Ok(());
    }
    if mismatches.is_empty() {
        println!("match: no mismatches");
        return Ok(());
    }
    println!("{} mismatch(es):", mismatches.len());
    for m in mismatches {
        println!("  {m}");
    }
    Ok(())
}
