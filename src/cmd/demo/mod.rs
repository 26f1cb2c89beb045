//! `accord demo`: the whole idea in a minute. A broker on a temporary
//! SQLite database, the reference agents (a good and a faulty version of
//! the A2A planning agent, of the MCP plan tools and of the A2A work
//! planner, whose tool server is a stand-in that records what it does
//! downstream), two consumers' contracts on two branches, the real verifier against each provider
//! version with its results published, deployments recorded to
//! production, and the broker's can-i-deploy answers — then the broker
//! keeps serving its pages until Ctrl-C (`--no-serve`: once, for CI).
//!
//! Nothing is canned: each step calls the code of the command it stands
//! for (`publish`, `verify --publish`, `environment create`,
//! `record-deployment`, `can-i-deploy`) against the broker's HTTP API on
//! loopback, so every verdict shown comes from an actual run.

mod answers;
mod broker;
mod providers;
mod publishing;
mod scenario;
mod show;
mod verification;

use std::time::Instant;

use clap::Args;

use super::Outcome;
use crate::client::BrokerClient;
use broker::{DemoBroker, Interrupt};
use providers::RunningProvider;
use scenario::{CONSUMERS, PROVIDERS};
use verification::PactVerdict;

/// Run the demo: a broker, two consumers, a good and a faulty version of
/// three providers, and what can be deployed.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Run once, print the answers, stop and remove everything (for CI).
    #[arg(long)]
    no_serve: bool,
    /// The broker's port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 9292)]
    port: u16,
}

/// One provider version's build: what it verified.
#[derive(Debug)]
pub struct Build {
    pub provider: scenario::ProviderVersion,
    pub verdicts: Vec<PactVerdict>,
}

/// Runs the demo.
pub fn run(args: DemoArgs) -> anyhow::Result<Outcome> {
    if std::env::var_os("RUST_LOG").is_some() {
        super::serve::init_logging();
    }
    let interrupt = Interrupt::listen();
    let clock = Instant::now();
    let broker = DemoBroker::start(args.port)?;
    show::title();
    show::broker(&broker);
    let client = BrokerClient::anonymous(&broker.url)?;
    let providers = providers::start_all(&PROVIDERS)?;
    show::providers(&providers);
    interrupt.check()?;
    demonstrate(&client, &providers, &broker.url, &interrupt, !args.no_serve)?;
    drop(client);
    show::finished(clock.elapsed());
    if !args.no_serve {
        show::serving(&broker.url);
        let signal = interrupt.wait();
        let dir = broker.database.parent().map(std::path::Path::to_path_buf);
        drop(providers);
        broker.stop()?;
        show::stopped(signal, dir.as_deref());
        return Ok(Outcome::Pass);
    }
    drop(providers);
    broker.stop()?;
    Ok(Outcome::Pass)
}

/// The steps after the start: publish, verify, deploy, verify the next
/// builds, ask, and where to look.
fn demonstrate(
    client: &BrokerClient,
    providers: &[RunningProvider],
    broker_url: &str,
    interrupt: &Interrupt,
    serving: bool,
) -> anyhow::Result<()> {
    show::section("Consumers publish their contracts (examples/demo/*.yaml)");
    for line in publishing::publish_all(client)? {
        show::line(&line);
    }
    interrupt.check()?;
    show::section("Provider builds verify them (main branch + deployed versions, WIP pending)");
    let mut builds = verify_builds(client, providers, true, interrupt)?;
    show::section("Deployed to production");
    show::line(&answers::record_deployments(client)?.join(", "));
    interrupt.check()?;
    show::section("The next provider builds verify them");
    builds.extend(verify_builds(client, providers, false, interrupt)?);
    show::section("Can I deploy to production?");
    let verdicts: Vec<PactVerdict> = builds.iter().flat_map(|b| b.verdicts.clone()).collect();
    let mut questions: Vec<(&'static str, &'static str)> =
        PROVIDERS.iter().map(|p| (p.name, p.version)).collect();
    let candidates = CONSUMERS.iter().filter(|c| !c.deployed);
    questions.extend(candidates.map(|c| (c.name, c.version)));
    let mut asked = Vec::new();
    for (name, version) in questions {
        let answer = answers::can_i_deploy(client, name, version, &verdicts)?;
        show::answer(&answer);
        asked.push(answer);
    }
    show::pages(broker_url, &asked, &builds, serving);
    Ok(())
}

/// Verifies (and shows) the good provider versions (`good`) or the
/// faulty ones.
fn verify_builds(
    client: &BrokerClient,
    providers: &[RunningProvider],
    good: bool,
    interrupt: &Interrupt,
) -> anyhow::Result<Vec<Build>> {
    let mut builds = Vec::new();
    for provider in providers.iter().filter(|p| p.version.is_good() == good) {
        let verdicts = verification::verify(client, provider)?;
        show::build(&provider.version, &verdicts);
        builds.push(Build {
            provider: provider.version,
            verdicts,
        });
        interrupt.check()?;
    }
    Ok(builds)
}
