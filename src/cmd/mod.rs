//! Subcommands, one file each.

mod admission;
mod can_i_deploy;
mod contract;
mod coverage;
mod declarations;
mod demo;
mod diff;
mod drift;
mod environment;
mod evaluation;
mod files;
mod lint_warnings;
mod match_cmd;
mod migrate;
mod mock;
mod mock_env;
mod pacticipant;
mod publish;
mod record_deployment;
mod record_release;
mod serve;
mod token;
mod verify;
mod verify_command;
mod verify_fetch;
mod verify_guard;
mod verify_legacy;
mod verify_parse;
mod verify_progress;
mod verify_publish;
mod verify_standins;
mod verify_standins_broker;

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
    after_help = "Exit codes: 0 success, 1 contract failure or mismatch, 2 usage or operational error.\n\nStart with:\n  accord demo                      (the whole idea in a minute, on a throwaway broker)\n  accord serve                     (a broker on ./accord.db, http://127.0.0.1:9292)\n  accord contract compile examples/planning-agent.yaml -o planning-agent.json\n  accord publish planning-agent.json --consumer-app-version 1.0.0 --branch main --broker-url http://127.0.0.1:9292"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile, lint and digest contracts.
    #[command(
        subcommand,
        after_help = "Exit codes: 0 success, 1 lint found errors, 2 an unreadable or invalid file.\n\nExamples:\n  accord contract compile examples/planning-agent.yaml -o planning-agent.json\n  accord contract lint planning-agent.json\n  accord contract digest planning-agent.json"
    )]
    Contract(contract::ContractCommand),
    /// Compare an actual Pact request, response or message with an expected one.
    Match(match_cmd::MatchArgs),
    /// Run the contract broker (Pact Broker compatible) on SQLite or PostgreSQL.
    #[command(
        after_help = "Exit codes: 0 stopped (Ctrl-C or SIGTERM), 2 could not start (port in use, database unreachable).\n\nExamples:\n  accord serve\n  accord serve --bind 0.0.0.0:9292 --database-url postgres://accord:secret@db/accord --public-badges\n  accord serve --webhook-host-allowlist ci.example.com,10.20.0.0/16"
    )]
    Serve(serve::ServeArgs),
    /// Run a one-minute demo on a throwaway broker: agents, contracts, verdicts.
    #[command(
        after_help = "Starts a broker on a temporary SQLite database and Accord's reference agents (a good and a faulty version of an A2A planning agent, of an MCP tool server and of an A2A work planner whose own tool server is a stand-in judging what it does downstream), publishes two consumers' contracts (examples/demo/) on two branches, verifies each provider version with the real verifier and publishes the results, records deployments to production, then prints the can-i-deploy answers and the URLs of the broker's pages. Then it keeps serving until Ctrl-C, which stops everything and removes the database.\n\nExit codes: 0 the demo ran (the faulty versions failing is its point), 2 it could not run (the port is taken, a step failed).\n\nExamples:\n  accord demo                      (then open http://127.0.0.1:9292/ui)\n  accord demo --port 0 --no-serve  (once, on a free port, for CI)"
    )]
    Demo(demo::DemoArgs),
    /// Apply the broker's database migrations.
    #[command(
        after_help = "Exit codes: 0 the database is up to date, 2 it could not be migrated.\n\nExample:\n  accord migrate --database-url postgres://accord:secret@db/accord"
    )]
    Migrate(migrate::MigrateArgs),
    /// Create, list and revoke the broker's API tokens.
    #[command(
        after_help = "Exit codes: 0 success, 2 usage error or no such database or token.\n\nExamples:\n  accord token create --role write --name ci          (next to the broker's accord.db)\n  accord token list --database-url postgres://accord:secret@db/accord\n  accord token revoke ci --broker-url http://127.0.0.1:9292 --token $ADMIN_TOKEN   (through a running broker)"
    )]
    Token(token::TokenArgs),
    /// Create, update or list pacticipants on a broker.
    #[command(
        after_help = "Exit codes: 0 success, 2 usage error or the broker refused or could not be reached.\n\nExamples:\n  accord pacticipant create --name planning-agent --main-branch main --broker-url http://127.0.0.1:9292\n  accord pacticipant list --broker-url http://127.0.0.1:9292"
    )]
    Pacticipant(pacticipant::PacticipantArgs),
    /// Create or list the environments deployments and releases go to.
    #[command(
        after_help = "Exit codes: 0 success, 2 usage error or the broker refused or could not be reached.\n\nExamples:\n  accord environment create --name production --production --broker-url http://127.0.0.1:9292\n  accord environment list --broker-url http://127.0.0.1:9292"
    )]
    Environment(environment::EnvironmentArgs),
    /// Publish or show what a provider version declares: its Agent Card, its MCP tools per profile.
    #[command(
        after_help = "Exit codes: 0 success, 2 usage error, an unreadable file, or the broker refused or could not be reached.\n\nExamples:\n  accord declarations publish --pacticipant planning-agent --version 3.5.0 --agent-card agent-card.json --broker-url http://127.0.0.1:9292\n  accord declarations publish --pacticipant tools --version 3.5.0 --mcp-tools tools-list.json --profile alice\n  accord declarations show --pacticipant tools --version 3.5.0"
    )]
    Declarations(declarations::DeclarationsArgs),
    /// Publish or list a provider version's evaluation results (scores on data sets), kept apart from contract evidence.
    #[command(
        after_help = "Exit codes: 0 success, 2 usage error, or the broker refused or could not be reached.\n\nExamples:\n  accord evaluation publish --pacticipant planning-agent --version 3.5.0 --dataset golden-set-v3 --score 0.91 --threshold 0.85 --broker-url http://127.0.0.1:9292\n  accord evaluation list --pacticipant planning-agent --version 3.5.0\n\nEvaluation results never change a contract verdict: can-i-deploy, the matrix and admission do not read them."
    )]
    Evaluation(evaluation::EvaluationArgs),
    /// Classify every change between two declarations (Agent Cards or tool lists) and whom it breaks.
    #[command(
        after_help = "Exit codes: 0 no change breaks a consumer, 1 a breaking change affects a live consumer (offline without --contract: any breaking change), 2 usage error, an unreadable file, or the broker refused or could not be reached.\n\nExamples:\n  accord diff tools-3.4.json tools-3.5.json --contract planner.json --contract auditor.json\n  accord diff card-old.json card-new.json\n  accord diff --pacticipant plan-tools --from 3.4 --to 3.5 --broker-url http://127.0.0.1:9292\n\nClasses: breaking, conditional, compatible, warning; the codes are in docs/provider-setup.md (Compatibility classification). Through a broker, the consumers are the provider's live ones (main branch heads, deployed, released)."
    )]
    Diff(diff::DiffArgs),
    /// Record that a version is deployed to an environment (replacing the previous one).
    RecordDeployment(record_deployment::RecordDeploymentArgs),
    /// Record that a version is released to an environment (alongside earlier releases).
    RecordRelease(record_release::RecordReleaseArgs),
    /// Ask a broker whether a version can be deployed (exit 0 yes, 1 no or unknown).
    #[command(
        disable_version_flag = true,
        after_help = "Exit codes: 0 yes, 1 no or unknown (the reasons are printed), 2 usage error or the broker could not be asked.\n\nExamples:\n  accord can-i-deploy --pacticipant planning-agent --version 2.0.1 --to-environment production --broker-url http://127.0.0.1:9292\n  accord can-i-deploy --pacticipant planning-agent --version 2.0.1 --to-environment production --require-admission REGISTRY_ADMITTED --require-coverage"
    )]
    CanIDeploy(can_i_deploy::CanIDeployArgs),
    /// Show a provider version's admission state and how it got there, or promote it.
    #[command(
        after_help = "Exit codes: 0 shown or moved, 1 a promotion refused (the reason is printed), 2 usage error, no such version, or the broker could not be reached.\n\nExamples:\n  accord admission show planning-agent 2.0.1 --broker-url http://127.0.0.1:9292\n  accord admission promote planning-agent 2.0.1 --to REGISTRY_ADMITTED --reason \"release review 42\""
    )]
    Admission(admission::AdmissionArgs),
    /// Show which declared operations of a provider the live consumer contracts cover.
    #[command(
        disable_version_flag = true,
        after_help = "Every A2A skill and MCP tool the provider version declares, with its risk class (destructive, write, read-only: from MCP annotations, A2A skill tags and the contracts) and the case kinds the policy asks of it: destructive and write operations need an authorization case (a negative of kind unauthenticated or expired_credential, or a refused call without a valid credential or as another principal), a tenant-probe case (negative: cross_tenant, or probe_as) and an approval case (approval: { granted: false }, or negative: missing_approval); read-only ones a boundary case (a refused case or an expected error). An operation no live contract uses is a gap too. Interactions tagged incident (comments: { tags: [incident] }) are listed as kept. The contracts are the live ones: main branch heads, deployed, released.\n\nExit codes: 0 shown (and, with --require-coverage, no gap), 1 gaps remain and --require-coverage was given, 2 usage error, an unknown provider or version, a version that declares nothing, or the broker could not be reached.\n\nExamples:\n  accord coverage --pacticipant plan-tools --broker-url http://127.0.0.1:9292\n  accord coverage --pacticipant plan-tools --version 3.5.0 --require-coverage"
    )]
    Coverage(coverage::CoverageArgs),
    /// Send runtime drift reports and set the drift policy of a provider.
    #[command(
        after_help = "Exit codes: 0 done, 2 usage error, an unreadable file, a refused report or policy, or the broker could not be reached.\n\nExamples:\n  accord drift report drift.json --broker-url http://127.0.0.1:9292\n  accord drift policy set planning-agent drift-policy.yaml\n  accord drift policy show planning-agent"
    )]
    Drift(drift::DriftArgs),
    /// Replay contracts against a running provider and report findings by layer.
    #[command(
        after_help = "Exit codes: 0 every non-pending interaction passed, 1 a non-pending interaction failed, 2 an operational error (bad arguments, unreadable contract, provider or broker unreachable, results not published).\n\nExamples:\n  accord verify --provider items --provider-base-url http://127.0.0.1:8080 --contract pacts/web-items.json\n  accord verify --provider items --provider-base-url http://127.0.0.1:8080 --state-change-url http://127.0.0.1:8080/_state \\\n    --broker-url http://127.0.0.1:9292 --enable-pending --provider-version $GIT_SHA --provider-branch main --publish\n  accord verify --provider planning-agent --provider-base-url http://127.0.0.1:9999 --contract planning-agent.json \\\n    --a2a-binding http+json --state-change-url http://127.0.0.1:9999/_accord/state --observe-url http://127.0.0.1:9999/_accord/observe\n\nPact verifier command lines work as they are: its flag names are aliases (listed with each option), and --hostname/--port/--scheme/--base-path make the base URL.\n\nThe provider-side protocol (state changes, observations, principals): docs/provider-setup.md"
    )]
    Verify(Box<verify::VerifyArgs>),
    /// Serve a mock provider built from a contract, for the consumer's own tests.
    #[command(
        after_help = "Prints one line per surface the contract has (HTTP <base url>, A2A <agent card url>, MCP <endpoint url>), then a line per request received on standard error, and the report when it stops.\n\nExit codes: 0 every interaction exercised and no unexpected request (and the command passed), 1 otherwise, 2 usage error or the contract could not be read or served.\n\nExamples:\n  accord mock --contract web-items.json --port 8080             (until Ctrl-C)\n  accord mock --contract examples/items.yaml --out pacts -- cargo test --test consumer\n  accord mock --contract planner.yaml --principal alice=token-a -- pytest tests/\n  accord mock --contract planner.yaml --contract tools.yaml --out pacts -- pytest tests/\n\nThe command sees ACCORD_MOCK_URL (the mock's base URL), ACCORD_A2A_URL (the A2A agent's base URL; its card is under it) and ACCORD_MCP_URL (the MCP endpoint) for the surfaces the contract has.\n\nSeveral --contract: one mock per contract (one provider each), each on its own port (--port P: P, P+1, … in the order given); each line printed starts with the provider (`planning-agent: A2A <url>`), the command sees per provider ACCORD_MOCK_URL_<PROVIDER>, ACCORD_A2A_URL_<PROVIDER> and ACCORD_MCP_URL_<PROVIDER> (the provider's name upper-cased, every other character than a letter or digit as _: plan-tools → PLAN_TOOLS; with one contract these are set too), the report comes per contract, and --out gets each contract exercised as written (the run fails if one was not). Admin routes for other harnesses: GET /__accord/interactions, GET /__accord/mismatches, GET /__accord/report, POST /__accord/reset."
    )]
    Mock(mock::MockArgs),
    /// Publish contracts (Accord or Pact files) for a consumer version.
    #[command(
        after_help = "Exit codes: 0 published, 2 usage error, an unreadable or refused contract, or the broker could not be reached.\n\nWhich tool for which file:\n  Accord contracts (accord contract compile's output, or any file with A2A/Task or MCP/ToolCall interactions, agentCard, mcpTools or Accord expectations such as sideEffects): accord publish only. `pact broker publish` refuses A2A/MCP interactions and re-serialises the rest without Accord's attributes.\n  Plain Pact files (V1-V4): accord publish or pact broker publish.\n  Once published, Pact clients reading the broker (pact verifier --broker-url, pact stub --broker-url) are served each contract's Pact view (its HTTP and message interactions); accord verify gets whole contracts. See docs/pact-clients.md.\n\nExample:\n  accord publish planning-agent.json --consumer-app-version 1.0.0 --branch main --broker-url http://127.0.0.1:9292"
    )]
    Publish(publish::PublishArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Contract(c) => contract::run(c),
        Command::Match(m) => match_cmd::run(m),
        Command::Serve(a) => serve::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Migrate(a) => migrate::run(a),
        Command::Token(a) => token::run(a),
        Command::Pacticipant(a) => pacticipant::run(a),
        Command::Environment(a) => environment::run(a),
        Command::Declarations(a) => declarations::run(a),
        Command::Evaluation(a) => evaluation::run(a),
        Command::Diff(a) => diff::run(a),
        Command::RecordDeployment(a) => record_deployment::run(a),
        Command::RecordRelease(a) => record_release::run(a),
        Command::CanIDeploy(a) => can_i_deploy::run(a),
        Command::Admission(a) => admission::run(a),
        Command::Coverage(a) => coverage::run(a),
        Command::Drift(a) => drift::run(a),
        Command::Verify(a) => verify::run(*a),
        Command::Publish(a) => publish::run(a),
        Command::Mock(a) => mock::run(a),
    }
}
