//! Subcommands, one file each.

mod can_i_deploy;
mod contract;
mod environment;
mod files;
mod match_cmd;
mod migrate;
mod pacticipant;
mod publish;
mod record_deployment;
mod record_release;
mod serve;
mod token;
mod verify;
mod verify_fetch;
mod verify_legacy;
mod verify_parse;
mod verify_progress;
mod verify_publish;

use clap::{Parser, Subcommand};

/// Outcome of a command that ran: 0 pass, 1 contract failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
}

impl From<Outcome> for std::process::ExitCode {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Pass => std::process::ExitCode::SUCCESS,
            Outcome::Fail => std::process::ExitCode::from(1),
        }
    }
}

/// Accord: consumer-driven contract testing for AI-agent integrations.
///
/// Exit codes: 0 success, 1 contract failure or mismatch, 2 usage or
/// operational error.
#[derive(Debug, Parser)]
#[command(
    name = "accord",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "Exit codes: 0 success, 1 contract failure or mismatch, 2 usage or operational error.\n\nStart with:\n  accord serve                     (a broker on ./accord.db, http://127.0.0.1:9292)\n  accord contract compile examples/planning-agent.yaml -o planning-agent.json\n  accord publish planning-agent.json --consumer-app-version 1.0.0 --branch main --broker-url http://127.0.0.1:9292"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile, lint and digest contracts.
    #[command(subcommand)]
    Contract(contract::ContractCommand),
    /// Compare an actual Pact request, response or message with an expected one.
    Match(match_cmd::MatchArgs),
    /// Run the contract broker (Pact Broker compatible) on SQLite or PostgreSQL.
    Serve(serve::ServeArgs),
    /// Apply the broker's database migrations.
    Migrate(migrate::MigrateArgs),
    /// Create, list and revoke the broker's API tokens.
    Token(token::TokenArgs),
    /// Create, update or list pacticipants on a broker.
    Pacticipant(pacticipant::PacticipantArgs),
    /// Create or list the environments deployments and releases go to.
    Environment(environment::EnvironmentArgs),
    /// Record that a version is deployed to an environment (replacing the previous one).
    RecordDeployment(record_deployment::RecordDeploymentArgs),
    /// Record that a version is released to an environment (alongside earlier releases).
    RecordRelease(record_release::RecordReleaseArgs),
    /// Ask a broker whether a version can be deployed (exit 0 yes, 1 no or unknown).
    #[command(disable_version_flag = true)]
    CanIDeploy(can_i_deploy::CanIDeployArgs),
    /// Replay contracts against a running provider and report findings by layer.
    #[command(
        after_help = "Exit codes: 0 every non-pending interaction passed, 1 a non-pending interaction failed, 2 an operational error (bad arguments, unreadable contract, broker unreachable, results not published).\n\nExamples:\n  accord verify --provider items --provider-base-url http://127.0.0.1:8080 --contract pacts/web-items.json\n  accord verify --provider items --provider-base-url http://127.0.0.1:8080 --state-change-url http://127.0.0.1:8080/_state \\\n    --broker-url http://127.0.0.1:9292 --enable-pending --provider-version $GIT_SHA --provider-branch main --publish\n\nThe provider-side protocol (state changes, observations, principals): docs/provider-setup.md"
    )]
    Verify(Box<verify::VerifyArgs>),
    /// Publish contracts (Accord or Pact files) for a consumer version.
    Publish(publish::PublishArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Contract(c) => contract::run(c),
        Command::Match(m) => match_cmd::run(m),
        Command::Serve(a) => serve::run(a),
        Command::Migrate(a) => migrate::run(a),
        Command::Token(a) => token::run(a),
        Command::Pacticipant(a) => pacticipant::run(a),
        Command::Environment(a) => environment::run(a),
        Command::RecordDeployment(a) => record_deployment::run(a),
        Command::RecordRelease(a) => record_release::run(a),
        Command::CanIDeploy(a) => can_i_deploy::run(a),
        Command::Verify(a) => verify::run(*a),
        Command::Publish(a) => publish::run(a),
    }
}
