//! `accord declarations publish|show`: what a provider version declares —
//! its Agent Card, its MCP `tools/list` per profile — on the broker
//! (`PUT/GET /pacticipants/{p}/versions/{v}/declarations/…`).

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use reqwest::Method;
use serde_json::Value;

use accord_verifier::Token;
use accord_verifier::mcp::Era;
use accord_verifier::mcp::read::read_tool_list;

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, segment};

/// The largest declaration file read.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Publish or show what a provider version declares (Agent Card, MCP tools).
#[derive(Debug, Args)]
pub struct DeclarationsArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: DeclarationsCommand,
}

#[derive(Debug, Subcommand)]
enum DeclarationsCommand {
    /// Publish a provider version's Agent Card, or its MCP tools/list for a profile.
    #[command(
        disable_version_flag = true,
        after_help = "Exit codes: 0 published (or already declared with this digest), 2 usage error, an unreadable file, or the broker refused it or could not be reached.\n\nExamples:\n  accord declarations publish --pacticipant planning-agent --version 3.5.0 --agent-card agent-card.json\n  accord declarations publish --pacticipant tools --version 3.5.0 --mcp-tools tools-list.json --profile alice\n  accord declarations publish --pacticipant planning-agent --version 3.5.0 --agent-card http://127.0.0.1:9999/.well-known/agent-card.json\n  accord declarations publish --pacticipant tools --version 3.5.0 --mcp-tools http://127.0.0.1:8931/mcp --profile alice --principal alice=$ALICE_TOKEN\n\nThe tool list is a tools/list result with every page followed: {\"tools\": [...]}. Each is stored by the digest a verification records for the same content (sha256 over RFC 8785 canonical JSON; a tool list's tools ordered by name)."
    )]
    Publish {
        /// The provider (pacticipant).
        #[arg(long, short = 'a', value_name = "NAME")]
        pacticipant: String,
        /// Its version.
        #[arg(long, short = 'e', value_name = "VERSION")]
        version: String,
        /// The Agent Card: a JSON file, or an http(s) URL read as `accord verify`
        /// reads a card (A2A-Version: 1.0, its size and time limits, no credential).
        #[arg(
            long,
            value_name = "FILE|URL",
            conflicts_with = "mcp_tools",
            required_unless_present = "mcp_tools"
        )]
        agent_card: Option<String>,
        /// A file holding a tools/list result (JSON: {"tools": [...]}), or an MCP
        /// endpoint's http(s) URL, listed as `accord verify` lists it (initialize for
        /// a 2025 era, every nextCursor page, its size and time limits).
        #[arg(long, value_name = "FILE|URL", requires = "profile")]
        mcp_tools: Option<String>,
        /// Who the tools were listed as (a principal or tenant class).
        #[arg(long, value_name = "NAME")]
        profile: Option<String>,
        /// List the tools as this principal: its bearer token, NAME=TOKEN, sent to
        /// the --mcp-tools URL only (never printed, never to the broker).
        #[arg(long = "principal", value_name = "NAME=TOKEN", requires = "mcp_tools")]
        principal: Option<String>,
        /// The MCP protocol version to list the tools in (with an --mcp-tools URL).
        #[arg(
            long,
            value_name = "VERSION",
            value_parser = ["2026-07-28", "2025-11-25", "2025-06-18"],
            default_value = "2026-07-28"
        )]
        mcp_version: String,
    },
    /// Show a provider version's declarations (digest, entries, when declared).
    #[command(disable_version_flag = true)]
    Show {
        /// The provider (pacticipant).
        #[arg(long, short = 'a', value_name = "NAME")]
        pacticipant: String,
        /// Its version.
        #[arg(long, short = 'e', value_name = "VERSION")]
        version: String,
        /// Print the broker's JSON instead of a table.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// Runs a declarations subcommand.
pub fn run(args: DeclarationsArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    match args.command {
        DeclarationsCommand::Publish {
            pacticipant,
            version,
            agent_card,
            mcp_tools,
            profile,
            principal,
            mcp_version,
        } => {
            let base = declarations_path(&pacticipant, &version);
            let (path, source, what) = match (agent_card, mcp_tools, profile) {
                (Some(source), _, _) => (
                    format!("{base}/agent-card"),
                    Source::of(&source),
                    "Agent Card".to_owned(),
                ),
                (None, Some(tools), Some(profile)) => (
                    format!("{base}/mcp-tools/{}", segment(&profile)),
                    Source::tools(&tools, principal.as_deref(), &mcp_version)?,
                    format!("MCP tools of profile {profile}"),
                ),
                _ => {
                    bail!("give --agent-card FILE|URL, or --mcp-tools FILE|URL with --profile NAME")
                }
            };
            let body = source.read()?;
            let reply = client.expect_ok(Method::PUT, &path, Some(&body))?;
            println!(
                "Declared the {what} of {pacticipant} version {version}: {} ({} entries)",
                reply["digest"].as_str().unwrap_or("?"),
                reply["entries"]
            );
            if let Some(line) = static_check_line(&reply["staticCheck"]) {
                println!("{line}");
            }
        }
        DeclarationsCommand::Show {
            pacticipant,
            version,
            output,
        } => {
            let body = client.get(&declarations_path(&pacticipant, &version))?;
            if output == "json" {
                println!("{}", serde_json::to_string_pretty(&body)?);
            } else {
                print_table(&body);
            }
        }
    }
    Ok(Outcome::Pass)
}

/// The broker's static cross-check of the new declarations, in one line
/// (none when the digest did not change, or the broker does not check).
fn static_check_line(check: &Value) -> Option<String> {
    let consumers = check["consumers"].as_array()?;
    let failed: Vec<String> = consumers
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| {
            let codes: Vec<&str> = c["reasonCodes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str())
                .collect();
            format!(
                "{}: {}",
                c["consumer"].as_str().unwrap_or("?"),
                codes.join(", ")
            )
        })
        .collect();
    let n = consumers.len();
    let mut line = if n == 0 {
        "Static check: no live consumer contract to check the declarations against".to_owned()
    } else if failed.is_empty() {
        format!(
            "Static check against {n} live consumer contract(s): passed (replay still required)"
        )
    } else {
        format!(
            "Static check against {n} live consumer contract(s): FAILED — {}",
            failed.join("; ")
        )
    };
    if let Some(state) = check["admission"].as_str() {
        line.push_str(&format!("; admission state now {state}"));
    }
    Some(line)
}

/// Where a declaration is read from.
enum Source {
    File(std::path::PathBuf),
    /// An Agent Card's URL.
    Url(String),
    /// An MCP endpoint, listed in an era, as a principal or without a credential.
    McpUrl {
        url: String,
        era: Era,
        bearer: Option<Token>,
    },
}

fn is_url(text: &str) -> bool {
    text.starts_with("http://") || text.starts_with("https://")
}

impl Source {
    fn of(text: &str) -> Source {
        if is_url(text) {
            Source::Url(text.to_owned())
        } else {
            Source::File(text.into())
        }
    }

    /// `--mcp-tools`: a file, or an endpoint listed as `--principal` (a URL only).
    fn tools(text: &str, principal: Option<&str>, version: &str) -> anyhow::Result<Source> {
        let bearer = match principal {
            Some(p) => Some(super::verify_parse::parse_principal(p)?.1),
            None => None,
        };
        if !is_url(text) {
            if bearer.is_some() {
                bail!("--principal goes with an --mcp-tools URL (a file is read as it is)");
            }
            return Ok(Source::File(text.into()));
        }
        let era = Era::of(version)
            .with_context(|| format!("--mcp-version {version} is not one Accord speaks"))?;
        Ok(Source::McpUrl {
            url: text.to_owned(),
            era,
            bearer,
        })
    }

    fn read(&self) -> anyhow::Result<Value> {
        let runtime = || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
        };
        match self {
            Source::File(path) => read_json(path),
            Source::Url(url) => runtime()?
                .block_on(accord_verifier::a2a::read_agent_card(url))
                .map_err(|f| anyhow::anyhow!("{}", f.detail)),
            Source::McpUrl { url, era, bearer } => runtime()?
                .block_on(read_tool_list(url, *era, bearer.as_ref()))
                .map_err(|f| {
                    anyhow::anyhow!("the tools/list of {url} could not be read: {}", f.detail)
                }),
        }
    }
}

fn declarations_path(pacticipant: &str, version: &str) -> String {
    format!(
        "/pacticipants/{}/versions/{}/declarations",
        segment(pacticipant),
        segment(version)
    )
}

/// A JSON file, bounded.
fn read_json(path: &std::path::Path) -> anyhow::Result<Value> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!(
            "{} is larger than {} MiB",
            path.display(),
            MAX_FILE_BYTES >> 20
        );
    }
    serde_json::from_slice(&bytes).with_context(|| format!("{} is not JSON", path.display()))
}

fn print_table(body: &Value) {
    println!("KIND\tPROFILE\tDIGEST\tENTRIES\tDECLARED AT");
    for d in body["declarations"].as_array().into_iter().flatten() {
        let text = |k: &str| d[k].as_str().unwrap_or("-").to_owned();
        println!(
            "{}\t{}\t{}\t{}\t{}",
            text("kind"),
            text("profile"),
            text("digest"),
            d["entries"],
            text("declaredAt")
        );
    }
    let changes = body["history"].as_array().map_or(0, Vec::len);
    let current = body["declarations"].as_array().map_or(0, Vec::len);
    if changes > current {
        println!(
            "({} earlier declarations: --output json lists them)",
            changes - current
        );
    }
}
