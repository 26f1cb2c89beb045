//! Values with inline matchers: the example a consumer writes, where any
//! object with a `$keyword` key is a matcher (see [`super::matcher`]).
//!
//! A template is parsed while the spec is deserialised, so a bad matcher is
//! reported with the file position and field path of the spec. Compiling a
//! template gives the example value plus the matching rules and generators
//! at their Pact paths.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::matcher::{self, Matcher};
use super::path::PactPath;

/// A JSON value that may hold inline matchers.
#[derive(Debug, Clone, PartialEq)]
pub enum Template {
    /// A value without matchers.
    Literal(Value),
    /// An array of templates.
    Array(Vec<Template>),
    /// An object of templates (keys unescaped: `$$x` is written for `$x`).
    Object(IndexMap<String, Template>),
    /// An inline matcher.
    Matcher(Box<Matcher>),
}

impl Template {
    /// A template from a JSON value with inline matchers (same syntax as the
    /// spec language).
    pub fn from_json(value: Value) -> Result<Template, serde_json::Error> {
        Template::deserialize(value)
    }

    /// True when the template holds no matcher anywhere.
    pub fn is_literal(&self) -> bool {
        match self {
            Template::Literal(_) => true,
            Template::Array(items) => items.iter().all(Template::is_literal),
            Template::Object(fields) => fields.values().all(Template::is_literal),
            Template::Matcher(_) => false,
        }
    }

    /// The example value; rules and generators go to `out` at their paths
    /// below `path`.
    pub fn compile(&self, path: &PactPath, out: &mut Compiled) -> Value {
        match self {
            Template::Literal(v) => v.clone(),
            Template::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| t.compile(&path.index(i), out))
                    .collect(),
            ),
            Template::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, t)| (k.clone(), t.compile(&path.field(k), out)))
                    .collect(),
            ),
            Template::Matcher(m) => m.compile(path, out),
        }
    }

    /// The example value, ignoring rules (for values that take no matchers).
    pub fn example(&self) -> Value {
        self.compile(&PactPath::root(), &mut Compiled::default())
    }
}

/// Matching rules and generators collected while compiling templates.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compiled {
    rules: IndexMap<String, Vec<Value>>,
    generators: IndexMap<String, Value>,
}

impl Compiled {
    /// Adds a matcher (V4 JSON, e.g. `{"match": "type"}`) at `path`.
    pub fn add_rule(&mut self, path: &PactPath, rule: Value) {
        self.rules.entry(path.to_string()).or_default().push(rule);
    }

    /// Sets the generator (V4 JSON) at `path`.
    pub fn set_generator(&mut self, path: &PactPath, generator: Value) {
        self.generators.insert(path.to_string(), generator);
    }

    /// True when nothing was collected.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.generators.is_empty()
    }

    /// The rules as one V4 category, keyed by path:
    /// `{"$.a": {"combine": "AND", "matchers": [...]}}`.
    pub fn rules_by_path(&self) -> Map<String, Value> {
        self.rules
            .iter()
            .map(|(p, m)| (p.clone(), combined(m)))
            .collect()
    }

    /// The rule at the root only (`path`/`status` categories have no key).
    pub fn root_rule(&self) -> Option<Value> {
        self.rules.get("$").map(|m| combined(m))
    }

    /// The generators keyed by path.
    pub fn generators_by_path(&self) -> Map<String, Value> {
        self.generators.clone().into_iter().collect()
    }

    /// The generator at the root only.
    pub fn root_generator(&self) -> Option<Value> {
        self.generators.get("$").cloned()
    }
}

fn combined(matchers: &[Value]) -> Value {
    serde_json::json!({"combine": "AND", "matchers": matchers})
}

struct TemplateVisitor;

impl<'de> Visitor<'de> for TemplateVisitor {
    type Value = Template;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value, possibly with inline matchers")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Template, E> {
        Ok(Template::Literal(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Template, E> {
        Ok(Template::Literal(Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Template, E> {
        Ok(Template::Literal(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Template, E> {
        Number::from_f64(v)
            .map(|n| Template::Literal(Value::Number(n)))
            .ok_or_else(|| E::custom("numbers must be finite (no .inf or .nan)"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Template, E> {
        Ok(Template::Literal(Value::String(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<Template, E> {
        Ok(Template::Literal(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<Template, E> {
        Ok(Template::Literal(Value::Null))
    }
    fn visit_none<E>(self) -> Result<Template, E> {
        Ok(Template::Literal(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Template, D::Error> {
        Template::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Template, A::Error> {
        let mut items = Vec::new();
        while let Some(t) = seq.next_element::<Template>()? {
            items.push(t);
        }
        bounded(collapse_array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Template, A::Error> {
        let mut entries: Vec<(String, Template)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value::<Template>()?;
            entries.push((key, value));
        }
        if entries.iter().any(|(k, _)| matcher::is_keyword(k)) {
            return matcher::parse(entries)
                .map(|m| Template::Matcher(Box::new(m)))
                .map_err(<A::Error as de::Error>::custom)
                .and_then(bounded);
        }
        let fields: IndexMap<String, Template> = entries
            .into_iter()
            .map(|(k, v)| (matcher::unescape_key(k), v))
            .collect();
        bounded(collapse_object(fields))
    }
}

/// Most JSON nodes the example of one template may expand to (`$eachLike`
/// copies its item): a guard against exponential examples.
pub const MAX_EXAMPLE_NODES: u64 = 100_000;

fn bounded<E: de::Error>(t: Template) -> Result<Template, E> {
    let n = t.expanded_size();
    if n > MAX_EXAMPLE_NODES {
        return Err(E::custom(format!(
            "this value's example would hold {n} JSON values, more than {MAX_EXAMPLE_NODES}; lower `examples` of $eachLike"
        )));
    }
    Ok(t)
}

fn value_size(v: &Value) -> u64 {
    match v {
        Value::Array(a) => a.iter().map(value_size).fold(1, u64::saturating_add),
        Value::Object(o) => o.values().map(value_size).fold(1, u64::saturating_add),
        _ => 1,
    }
}

impl Template {
    /// The number of JSON values in the compiled example.
    pub fn expanded_size(&self) -> u64 {
        match self {
            Template::Literal(v) => value_size(v),
            Template::Array(items) => items
                .iter()
                .map(Template::expanded_size)
                .fold(1, u64::saturating_add),
            Template::Object(f) => f
                .values()
                .map(Template::expanded_size)
                .fold(1, u64::saturating_add),
            Template::Matcher(m) => m.expanded_size(),
        }
    }
}

fn collapse_array(items: Vec<Template>) -> Template {
    if items.iter().all(|t| matches!(t, Template::Literal(_))) {
        Template::Literal(Value::Array(items.into_iter().map(into_literal).collect()))
    } else {
        Template::Array(items)
    }
}

fn collapse_object(fields: IndexMap<String, Template>) -> Template {
    if fields.values().all(|t| matches!(t, Template::Literal(_))) {
        Template::Literal(Value::Object(
            fields
                .into_iter()
                .map(|(k, t)| (k, into_literal(t)))
                .collect(),
        ))
    } else {
        Template::Object(fields)
    }
}

fn into_literal(t: Template) -> Value {
    match t {
        Template::Literal(v) => v,
        other => other.example(),
    }
}

impl<'de> Deserialize<'de> for Template {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Template, D::Error> {
        d.deserialize_any(TemplateVisitor)
    }
}
