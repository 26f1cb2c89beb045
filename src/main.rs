//! `accord`: the one command-line tool of Accord.
//!
//! Thin: each subcommand parses its arguments into a typed config and calls
//! a library crate. Exit codes are a contract: 0 pass, 1 contract failure /
//! mismatch, 2 usage or operational error.

mod client;
mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    match cmd::run(cli) {
        Ok(code) => code.into(),
        Err(err) => {
            eprintln!("error: {}", render_error(&err));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes on one line, skipping a cause whose text the
/// message already carries (library errors often include their source).
fn render_error(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}
