//! The step definitions and the dispatcher that finds one for a step.
//!
//! A definition is a phrase with placeholders, in the spirit of cucumber
//! expressions: `{string}` is a `"…"` argument (with `\"` escapes),
//! `{quoted}` a `'…'` argument, `{int}` an integer, `{word}` one word,
//! `{kind}` an interaction kind (`HTTP`, `message`, `synchronous message`),
//! `a(n)` matches `a` or `an` and `(s)` an optional plural. Phrases match the whole step text.

mod consumer;
mod generators;
mod matching;
mod message;
mod sync_message;

use gherkin::{Step, Table};
use regex::Regex;

use crate::world::World;

/// The arguments a step definition receives.
#[derive(Debug)]
pub struct Args<'a> {
    /// The placeholder values, in order, unescaped.
    pub values: Vec<String>,
    pub table: Option<&'a Table>,
}

impl Args<'_> {
    /// The `i`-th placeholder value.
    pub fn get(&self, i: usize) -> &str {
        self.values.get(i).map(String::as_str).unwrap_or_default()
    }

    /// The `i`-th placeholder value as a number.
    pub fn int(&self, i: usize) -> Result<i64, String> {
        self.get(i)
            .parse()
            .map_err(|e| format!("{:?} is not an integer: {e}", self.get(i)))
    }
}

/// What a step definition does; `Err` fails the scenario with the reason.
pub type StepFn = fn(&mut World, &Args) -> Result<(), String>;

/// All step definitions.
#[derive(Debug)]
pub struct Registry {
    defs: Vec<(Regex, StepFn)>,
}

impl Registry {
    pub fn new() -> Self {
        let mut r = Registry { defs: Vec::new() };
        matching::register(&mut r);
        generators::register(&mut r);
        consumer::register(&mut r);
        message::register(&mut r);
        sync_message::register(&mut r);
        r
    }

    /// Adds a definition for `phrase`.
    pub fn add(&mut self, phrase: &str, run: StepFn) {
        let re = Regex::new(&phrase_to_regex(phrase)).expect("step phrases are valid patterns");
        self.defs.push((re, run));
    }

    /// Runs the definition that matches `step`.
    pub fn run(&self, world: &mut World, step: &Step) -> Result<(), String> {
        for (re, run) in &self.defs {
            if let Some(caps) = re.captures(&step.value) {
                let values = caps
                    .iter()
                    .skip(1)
                    .map(|m| {
                        m.map(|m| m.as_str().replace("\\\"", "\""))
                            .unwrap_or_default()
                    })
                    .collect();
                let args = Args {
                    values,
                    table: step.table.as_ref(),
                };
                return run(world, &args);
            }
        }
        Err("no step definition matches this step".into())
    }
}

fn phrase_to_regex(phrase: &str) -> String {
    let escaped = regex::escape(phrase)
        .replace(r"\{string\}", r#""((?:[^"\\]|\\.)*)""#)
        .replace(r"\{quoted\}", "'([^']*)'")
        .replace(r"\{int\}", r"(-?\d+)")
        .replace(r"\{word\}", r"(\w+)")
        .replace(r"\{kind\}", "(HTTP|message|synchronous message)")
        .replace(r"a\(n\)", "an?")
        .replace(r"\(s\)", "s?");
    format!("^{escaped}$")
}
