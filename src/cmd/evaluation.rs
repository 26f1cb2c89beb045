//! `accord evaluation publish|list`: evaluation evidence of a provider
//! version — a score on a data set against a threshold — on the broker
//! (`POST/GET /pacticipants/{p}/versions/{v}/evaluations`). Evidence only:
//! the broker computes pass from the numbers, shows it beside the contract
//! evidence, and never lets it change a contract verdict.

use clap::{Args, Subcommand};
use serde_json::{Value, json};

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, segment};

/// Publish or list a provider version's evaluation results.
#[derive(Debug, Args)]
pub struct EvaluationArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: EvaluationCommand,
}

#[derive(Debug, Subcommand)]
enum EvaluationCommand {
    /// Attach an evaluation result (data set, score, threshold) to a provider version.
    #[command(
        disable_version_flag = true,
        after_help = "Exit codes: 0 published (whether the threshold was met or not: evaluations gate nothing), 2 usage error, or the broker refused it (an unknown version, a bad field) or could not be reached.\n\nExamples:\n  accord evaluation publish --pacticipant planning-agent --version 3.5.0 --dataset golden-set-v3 --score 0.91 --threshold 0.85\n  accord evaluation publish -a planning-agent -e 3.5.0 --dataset error-rate --score 0.02 --threshold 0.05 --lower-is-better \\\n    --evaluator evalkit --evaluator-version 2.1 --url https://ci.example/evals/7\n\nThe broker computes pass: score >= threshold (score <= threshold with --lower-is-better). Evaluation results are not contract evidence: can-i-deploy, the matrix and admission never read them."
    )]
    Publish {
        /// The provider (pacticipant).
        #[arg(long, short = 'a', value_name = "NAME")]
        pacticipant: String,
        /// Its version (it must exist on the broker).
        #[arg(long, short = 'e', value_name = "VERSION")]
        version: String,
        /// The data set the score was reached on.
        #[arg(long, value_name = "NAME")]
        dataset: String,
        /// The score (a finite number).
        #[arg(long, value_name = "NUMBER", value_parser = finite, allow_negative_numbers = true)]
        score: f64,
        /// The threshold the score is held to (a finite number; negative allowed).
        #[arg(long, value_name = "NUMBER", value_parser = finite, allow_negative_numbers = true)]
        threshold: f64,
        /// Pass when the score is at or below the threshold (a loss, an error rate).
        #[arg(long)]
        lower_is_better: bool,
        /// The evaluator's name.
        #[arg(long, value_name = "NAME")]
        evaluator: Option<String>,
        /// The evaluator's version.
        #[arg(long, value_name = "VERSION", requires = "evaluator")]
        evaluator_version: Option<String>,
        /// A link to the evaluation run (http or https).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
    /// List a provider version's evaluation results beside its contract evidence.
    #[command(disable_version_flag = true)]
    List {
        /// The provider (pacticipant).
        #[arg(long, short = 'a', value_name = "NAME")]
        pacticipant: String,
        /// Its version.
        #[arg(long, short = 'e', value_name = "VERSION")]
        version: String,
        /// Print the broker's JSON instead of a table.
        #[arg(long, short = 'o', value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// A finite number (clap's f64 parser takes `NaN` and `inf`).
fn finite(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(n),
        _ => Err("expects a finite number, e.g. 0.85".to_owned()),
    }
}

fn path(pacticipant: &str, version: &str) -> String {
    format!(
        "/pacticipants/{}/versions/{}/evaluations",
        segment(pacticipant),
        segment(version)
    )
}

/// Runs an evaluation subcommand.
pub fn run(args: EvaluationArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    match args.command {
        EvaluationCommand::Publish {
            pacticipant,
            version,
            dataset,
            score,
            threshold,
            lower_is_better,
            evaluator,
            evaluator_version,
            url,
        } => {
            let mut body = json!({"dataset": dataset, "score": score, "threshold": threshold,
                                  "higherIsBetter": !lower_is_better});
            if let Some(name) = evaluator {
                body["evaluator"] = json!({"name": name, "version": evaluator_version});
            }
            if let Some(url) = url {
                body["url"] = json!(url);
            }
            let reply = client.post(&path(&pacticipant, &version), &body)?;
            println!(
                "Recorded evaluation of {pacticipant} {version} on {}: {}",
                reply["dataset"].as_str().unwrap_or("?"),
                line(&reply)
            );
            println!(
                "(evaluation evidence only: contract verdicts and can-i-deploy are unchanged)"
            );
        }
        EvaluationCommand::List {
            pacticipant,
            version,
            output,
        } => {
            let body = client.get(&path(&pacticipant, &version))?;
            if output == "json" {
                println!("{}", serde_json::to_string_pretty(&body)?);
            } else {
                print!("{}", render(&body));
            }
        }
    }
    Ok(Outcome::Pass)
}

/// "score 0.91 >= 0.85: met".
fn line(e: &Value) -> String {
    let rule = if e["higherIsBetter"] == false {
        "<="
    } else {
        ">="
    };
    let verdict = if e["pass"] == true { "met" } else { "not met" };
    format!("score {} {rule} {}: {verdict}", e["score"], e["threshold"])
}

/// The contract evidence line, then one line per evaluation result.
fn render(body: &Value) -> String {
    let c = &body["contractEvidence"];
    let mut out = format!(
        "Contract evidence: {} contract(s) verified, {} contract pass(es) (evaluation-eligible), {} failed\n",
        c["contracts"], c["evaluationEligible"], c["failed"]
    );
    let rows = body["evaluations"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if rows.is_empty() {
        out.push_str("No evaluation results.\n");
        return out;
    }
    out.push_str("DATASET\tSCORE\tVERDICT\tEVALUATOR\tRECORDED AT\n");
    for e in rows {
        let evaluator = [&e["evaluator"]["name"], &e["evaluator"]["version"]]
            .iter()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            e["dataset"].as_str().unwrap_or("?"),
            line(e),
            if evaluator.is_empty() {
                "-"
            } else {
                &evaluator
            },
            e["createdAt"].as_str().unwrap_or("-")
        ));
    }
    let total = body["total"].as_u64().unwrap_or(0);
    if total > rows.len() as u64 {
        out.push_str(&format!(
            "({} older results not shown)\n",
            total - rows.len() as u64
        ));
    }
    out
}
