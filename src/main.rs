//! `accord`: the one command-line tool of Accord.
//!
//! Thin: each subcommand parses its arguments into a typed config and calls
//! a library crate. Exit codes are a contract: 0 pass, 1 contract failure /
//! mismatch, 2 usage or operational error.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cmd::Cli::parse();
    match cmd::run(cli) {
        Ok(code) => code.into(),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
