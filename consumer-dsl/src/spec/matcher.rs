//! The inline matcher syntax: an object with one `$keyword` key (plus the
//! keyword's modifiers) stands for a matcher, e.g.
//! `{ $regex: "^plan-\\d+$", example: plan-1 }`.
//!
//! Each keyword turns into V4 matching rules (and maybe a generator) at the
//! object's path. The list of keywords and modifiers is [`KEYWORDS`]; the
//! reference is `docs/contract-format.md`.

use serde_json::{Value, json};

use super::matcher_kinds as kinds;
use super::path::PactPath;
use super::template::{Compiled, Template};

/// Every keyword, with the modifiers it accepts.
pub const KEYWORDS: &[(&str, &[&str])] = &[
    ("$like", &["min", "max"]),
    ("$eachLike", &["min", "max", "examples"]),
    ("$regex", &["example", "generate"]),
    ("$datetime", &["example", "generate"]),
    ("$date", &["example", "generate"]),
    ("$time", &["example", "generate"]),
    ("$integer", &["min", "max"]),
    ("$decimal", &["digits"]),
    ("$number", &[]),
    ("$boolean", &["generate"]),
    ("$null", &[]),
    ("$include", &["example"]),
    ("$equals", &[]),
    ("$enum", &["example"]),
    ("$values", &[]),
    ("$notEmpty", &[]),
    ("$semver", &[]),
    ("$eachKey", &["example"]),
    ("$eachValue", &["example"]),
    ("$arrayContains", &[]),
    ("$contentType", &["example"]),
    ("$statusCode", &["example"]),
    ("$fromState", &["example", "equal"]),
    ("$uuid", &[]),
    ("$randomInt", &["min", "max"]),
    ("$randomDecimal", &["digits"]),
    ("$randomHex", &["digits"]),
    ("$randomString", &["size"]),
    ("$mockServerUrl", &["regex"]),
];

/// An inline matcher: rules and generator at its path, and its example.
#[derive(Debug, Clone, PartialEq)]
pub struct Matcher {
    pub(crate) rules: Vec<Value>,
    pub(crate) generator: Option<Value>,
    pub(crate) body: MatcherBody,
}

/// Where a matcher's example comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum MatcherBody {
    /// The example sits at the matcher's own path.
    Example(Template),
    /// An array of `copies` items, each compiled at `path[*]`.
    EachLike { item: Template, copies: usize },
}

impl Matcher {
    /// The number of JSON values in the example.
    pub fn expanded_size(&self) -> u64 {
        match &self.body {
            MatcherBody::Example(t) => t.expanded_size(),
            MatcherBody::EachLike { item, copies } => item
                .expanded_size()
                .saturating_mul(*copies as u64)
                .saturating_add(1),
        }
    }

    /// The example; rules and generator go to `out`.
    pub fn compile(&self, path: &PactPath, out: &mut Compiled) -> Value {
        for r in &self.rules {
            out.add_rule(path, r.clone());
        }
        if let Some(g) = &self.generator {
            out.set_generator(path, g.clone());
        }
        match &self.body {
            MatcherBody::Example(t) => t.compile(path, out),
            MatcherBody::EachLike { item, copies } => {
                let each = path.each();
                let first = item.compile(&each, out);
                Value::Array(vec![first; *copies])
            }
        }
    }
}

/// True for a key that names a matcher keyword (`$like`), false for an
/// escaped literal key (`$$like`) and plain keys.
pub fn is_keyword(key: &str) -> bool {
    key.starts_with('$') && !key.starts_with("$$")
}

/// `$$x` → `$x`; other keys unchanged.
pub fn unescape_key(key: String) -> String {
    match key.strip_prefix('$') {
        Some(rest) if rest.starts_with('$') => rest.to_string(),
        _ => key,
    }
}

/// The keyword's value and its modifiers, consumed as they are read.
pub(crate) struct Args {
    pub keyword: String,
    pub value: Template,
    mods: Vec<(String, Template)>,
}

impl Args {
    /// Takes a modifier.
    pub fn take(&mut self, name: &str) -> Option<Template> {
        let i = self.mods.iter().position(|(k, _)| k == name)?;
        Some(self.mods.remove(i).1)
    }

    /// Takes a modifier that must be a non-negative integer.
    pub fn uint(&mut self, name: &str) -> Result<Option<u64>, String> {
        match self.take(name) {
            None => Ok(None),
            Some(Template::Literal(v)) if v.is_u64() => Ok(v.as_u64()),
            Some(_) => Err(format!(
                "{}: `{name}` must be a non-negative integer",
                self.keyword
            )),
        }
    }

    /// Takes a modifier that must be a boolean (default false).
    pub fn flag(&mut self, name: &str) -> Result<bool, String> {
        match self.take(name) {
            None => Ok(false),
            Some(Template::Literal(Value::Bool(b))) => Ok(b),
            Some(_) => Err(format!("{}: `{name}` must be true or false", self.keyword)),
        }
    }

    /// Takes the `example` modifier, required.
    pub fn example(&mut self) -> Result<Template, String> {
        self.take("example")
            .ok_or_else(|| format!("{} needs an `example`", self.keyword))
    }
}

/// Parses the entries of an object that holds a `$keyword` key.
pub fn parse(entries: Vec<(String, Template)>) -> Result<Matcher, String> {
    let (keyed, mods): (Vec<_>, Vec<_>) = entries.into_iter().partition(|(k, _)| is_keyword(k));
    let mut keyed = keyed.into_iter();
    let Some((keyword, value)) = keyed.next() else {
        return Err("a matcher needs a $keyword".into());
    };
    if let Some((other, _)) = keyed.next() {
        return Err(format!(
            "a matcher has exactly one $keyword, found `{keyword}` and `{other}` (write `$$key` for a literal key starting with `$`)"
        ));
    }
    let Some((_, allowed)) = KEYWORDS.iter().find(|(k, _)| *k == keyword) else {
        let names: Vec<&str> = KEYWORDS.iter().map(|(k, _)| *k).collect();
        return Err(format!(
            "unknown matcher `{keyword}`; expected one of {} (write `$$key` for a literal key starting with `$`)",
            names.join(", ")
        ));
    };
    let mut args = Args {
        keyword: keyword.clone(),
        value,
        mods,
    };
    let matcher = kinds::build(&mut args)?;
    self_check(&keyword, &matcher)?;
    if let Some((extra, _)) = args.mods.first() {
        let allowed = if allowed.is_empty() {
            "none".to_string()
        } else {
            allowed.join(", ")
        };
        return Err(format!(
            "unknown key `{extra}` for {keyword}; allowed: {allowed}"
        ));
    }
    Ok(matcher)
}

/// The example must satisfy the matcher's own rules, as the matching engine
/// judges them (a `$datetime` example in its format, a `$semver` that
/// parses, …): otherwise a mock built from the contract would fail its own
/// verification.
fn self_check(keyword: &str, m: &Matcher) -> Result<(), String> {
    let mut out = Compiled::default();
    let example = m.compile(&PactPath::root(), &mut out);
    let rules = json!({ "body": out.rules_by_path() });
    let rules = crate::matching::MatchingRules::from_pact_json(&rules, crate::model::PactSpec::V4)
        .map_err(|e| format!("{keyword}: the matching engine refuses the rule: {e}"))?;
    let Some(body) = rules.category("body") else {
        return Ok(());
    };
    match crate::matching::match_json(&example, &example, body, true).first() {
        Some(mismatch) => Err(format!(
            "{keyword}: the example does not satisfy the matcher: {}",
            mismatch.message
        )),
        None => Ok(()),
    }
}

/// A matcher with a single rule and its example.
pub(crate) fn simple(rule: Value, example: Template) -> Matcher {
    Matcher {
        rules: vec![rule],
        generator: None,
        body: MatcherBody::Example(example),
    }
}

/// `{"match": name}`.
pub(crate) fn rule(name: &str) -> Value {
    json!({ "match": name })
}
