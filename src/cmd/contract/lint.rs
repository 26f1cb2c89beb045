//! `accord contract lint FILE`: validates a contract (any Pact version or
//! Accord), prints its interactions by type, its problems and its digest.

use std::path::PathBuf;

use clap::Args;
use serde_json::{Value, json};

use crate::cmd::Outcome;
use crate::cmd::files::{is_spec, read_json};
use accord_dsl::model::PactSpec;
use accord_dsl::pact::{LintProblem, Severity, Summary};

#[derive(Debug, Args)]
pub struct LintArgs {
    /// The contract file (a Pact file of specification 1 to 4, or an Accord
    /// contract), or a spec (`.yaml`, `.yml`), compiled first as `accord
    /// contract compile` does.
    pub file: PathBuf,
    /// Print a JSON report instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Exit 0 when the contract has no error (warnings allowed), 1 when it has
/// one, 2 when it cannot be read at all.
pub fn run(args: LintArgs) -> anyhow::Result<Outcome> {
    let origin = args.file.display().to_string();
    let (contract, spec, digest) = if is_spec(&args.file) {
        let contract = super::compile::compile_spec_file(&args.file)?;
        let digest = accord_dsl::pact::contract_digest(&contract);
        (contract, PactSpec::V4, digest)
    } else {
        let value = read_json(&args.file)?;
        let contract = accord_dsl::pact::from_value(&value, &origin)?;
        let spec = accord_dsl::pact::detect_spec(&value, &origin)?;
        (contract, spec, accord_dsl::canonical::digest(&value))
    };
    let summary = accord_dsl::pact::summarize(&contract);
    let problems = accord_dsl::pact::lint(&contract);
    let failed = problems.iter().any(|p| p.severity == Severity::Error);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report_json(
                &contract, spec, &summary, &problems, &digest
            ))?
        );
    } else {
        print_text(&origin, &contract, spec, &summary, &problems, &digest);
    }
    Ok(if failed { Outcome::Fail } else { Outcome::Pass })
}

fn print_text(
    origin: &str,
    contract: &accord_dsl::Contract,
    spec: accord_dsl::PactSpec,
    summary: &Summary,
    problems: &[LintProblem],
    digest: &str,
) {
    println!(
        "{origin}: {} -> {}",
        contract.consumer.name, contract.provider.name
    );
    let accord = contract.accord.as_ref().map(|a| {
        let pins: Vec<String> = [("a2a", &a.a2a), ("mcp", &a.mcp)]
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} {v}")))
            .chain(std::iter::once(format!("JSON Schema {}", a.json_schema)))
            .collect();
        format!(" + Accord {} ({})", a.format_version, pins.join(", "))
    });
    println!(
        "format: Pact specification {spec}{}",
        accord.unwrap_or_default()
    );
    println!("interactions: {}", summary.total);
    for (kind, count) in &summary.by_type {
        println!("  {kind:<24}{count:>5}");
    }
    println!(
        "agent card expectations: {}",
        if summary.agent_card { "yes" } else { "no" }
    );
    println!("MCP tool expectations: {}", summary.mcp_tools);
    for p in problems {
        let level = match p.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        println!("{level} [{}] {}: {}", p.code, p.path, p.message);
    }
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    println!("{errors} error(s), {} warning(s)", problems.len() - errors);
    println!("digest: {digest}");
}

fn report_json(
    contract: &accord_dsl::Contract,
    spec: accord_dsl::PactSpec,
    summary: &Summary,
    problems: &[LintProblem],
    digest: &str,
) -> Value {
    let problems: Vec<Value> = problems
        .iter()
        .map(|p| {
            let severity = if p.severity == Severity::Error {
                "error"
            } else {
                "warning"
            };
            json!({"severity": severity, "code": p.code, "path": p.path, "message": p.message})
        })
        .collect();
    json!({
        "consumer": contract.consumer.name,
        "provider": contract.provider.name,
        "pactSpecification": spec.as_str(),
        "interactions": {"total": summary.total, "byType": summary.by_type},
        "agentCard": summary.agent_card,
        "mcpTools": summary.mcp_tools,
        "problems": problems,
        "digest": digest,
    })
}
