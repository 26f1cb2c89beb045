//! What `accord demo` prints: a section per step, on standard output.

use std::path::Path;
use std::time::Duration;

use super::Build;
use super::answers::{self, Answer};
use super::broker::DemoBroker;
use super::providers::RunningProvider;
use super::scenario::{ENVIRONMENT, PROVIDER_BRANCH, ProviderVersion};
use super::verification::PactVerdict;

/// The first line.
pub fn title() {
    println!(
        "Accord demo: two consumers, three providers (a good and a faulty version of each; the work planner's tool server stood in for), one broker; every verdict below comes from a real run."
    );
}

/// A step's heading.
pub fn section(title: &str) {
    println!("\n{title}");
}

/// A line of a step.
pub fn line(text: &str) {
    println!("  {text}");
}

pub fn broker(broker: &DemoBroker) {
    section("Broker");
    line(&format!(
        "{} (SQLite {})",
        broker.url,
        broker.database.display()
    ));
}

pub fn providers(providers: &[RunningProvider]) {
    section("Providers (Accord's reference agents)");
    for p in providers {
        line(&format!(
            "{:<22} {}  {}  {}",
            p.version.label(),
            p.protocol(),
            p.entry_url(),
            p.version.story
        ));
    }
}

/// One provider build's verifications: a line per pact and its findings.
pub fn build(provider: &ProviderVersion, verdicts: &[PactVerdict]) {
    line(&format!("{} ({PROVIDER_BRANCH})", provider.label()));
    for v in verdicts {
        let pending = if v.pending { ", pending" } else { "" };
        let (word, count) = if v.passed {
            ("passed", interactions(v.interactions))
        } else {
            let (n, total) = (v.failed_interactions, v.interactions);
            ("FAILED", format!("{n} of {} failed", interactions(total)))
        };
        line(&format!(
            "  {word:<7} {} ({}{pending}): {count}",
            v.consumer, v.selected_as
        ));
        for f in &v.failures {
            line(&format!(
                "            {}: {} {} at {}",
                f.interaction, f.layer, f.reason_code, f.path
            ));
        }
    }
}

/// One can-i-deploy answer: `name version → production: yes — …`.
pub fn answer(answer: &Answer) {
    line(&format!(
        "{} {} → {ENVIRONMENT}: {} — {}",
        answer.pacticipant,
        answer.version,
        answer.word(),
        answer.because.join("; ")
    ));
}

/// Where to look in the broker: its pages, and a page per failed
/// verification; with `--no-serve` (not `serving`), said to be the pages
/// of a broker that stops with this run.
pub fn pages(broker: &str, asked: &[Answer], builds: &[Build], serving: bool) {
    section("See it in the broker");
    if !serving {
        line(
            "(the pages `accord demo` serves: this run, --no-serve, stops its broker when it ends; run `accord demo` to open them)",
        );
    }
    line(&format!("Home            {broker}/ui"));
    line(&format!("Matrix          {broker}/ui/matrix"));
    for a in asked {
        line(&format!(
            "Can I deploy?   {broker}/ui/can-i-deploy?{}",
            a.query
        ));
    }
    line("Failed verifications:");
    for b in builds {
        for v in b.verdicts.iter().filter(|v| !v.passed) {
            let label = b.provider.label();
            line(&format!("  {label} × {} ({})", v.consumer, v.selected_as));
            line(&format!(
                "    {}",
                answers::verification_page(broker, &v.href)
            ));
        }
    }
}

/// `1 interaction`, `3 interactions`.
fn interactions(n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} interaction{s}")
}

pub fn finished(elapsed: Duration) {
    println!("\nDone in {:.1} s.", elapsed.as_secs_f64());
}

pub fn serving(broker: &str) {
    println!(
        "\nServing the broker ({broker}/ui) and the providers; press Ctrl-C to stop (the database is removed then)."
    );
}

pub fn stopped(signal: &str, dir: Option<&Path>) {
    let removed = dir
        .map(|d| format!("; removed {}", d.display()))
        .unwrap_or_default();
    println!("Stopped ({signal}){removed}.");
}
