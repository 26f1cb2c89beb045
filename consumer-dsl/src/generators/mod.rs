//! Generators: values produced at replay time instead of the example.
//!
//! - [`Generator`]: one Pact generator (RandomInt, Regex, Uuid, Date, …,
//!   ProviderState, MockServerURL) and its JSON form;
//! - [`Generators`]: the generators of a request, response or message by
//!   category and path, read from and written to the V3/V4 `generators`
//!   attribute;
//! - [`GeneratorContext`] and the `apply_*` functions: produce the values
//!   and write them into a request, response, message or JSON document.

mod apply;
mod datetime;
mod generate;
mod generator;
mod java_format;
mod path;
mod regex_gen;
mod validate;

pub use apply::{
    apply_state_values_to_json, apply_state_values_to_response, apply_to_json, apply_to_message,
    apply_to_request, apply_to_response, state_generators, unresolved_state_generators,
};
pub use datetime::{parse_date_expression, parse_time_expression};
pub use generate::{GeneratorContext, GeneratorMode};
pub use generator::{DataType, Generator, UuidFormat};
pub use java_format::{format_java, java_to_chrono_format};
pub use path::{replace_at, values_at};
pub use validate::is_valid_body_path;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::DslError;

/// The part of a request, response or message a generator applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Body,
    Header,
    Query,
    Path,
    Method,
    Status,
    Metadata,
}

impl Category {
    /// Every category, in the order Pact writes them.
    pub const ALL: [Category; 7] = [
        Category::Method,
        Category::Path,
        Category::Query,
        Category::Header,
        Category::Status,
        Category::Body,
        Category::Metadata,
    ];

    /// The key in the `generators` object.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Body => "body",
            Category::Header => "header",
            Category::Query => "query",
            Category::Path => "path",
            Category::Method => "method",
            Category::Status => "status",
            Category::Metadata => "metadata",
        }
    }

    /// Parses a category key; V3 message files say `content` for the body.
    pub fn parse(key: &str) -> Option<Self> {
        match key {
            "body" | "content" | "contents" => Some(Category::Body),
            "header" | "headers" => Some(Category::Header),
            "query" => Some(Category::Query),
            "path" => Some(Category::Path),
            "method" => Some(Category::Method),
            "status" => Some(Category::Status),
            "metadata" => Some(Category::Metadata),
            _ => None,
        }
    }

    /// Path, method and status hold one generator, not a map of them.
    pub fn is_single(self) -> bool {
        matches!(self, Category::Path | Category::Method | Category::Status)
    }
}

/// The generators of a request, response or message, by category.
///
/// Within a category, keys are JSON paths (`$.one`) for the body, names for
/// headers, query parameters and metadata, and the empty string for the
/// single-valued path, method and status.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Generators {
    categories: IndexMap<Category, IndexMap<String, Generator>>,
}

impl Generators {
    /// Parses the `generators` attribute (V3/V4 form).
    pub fn from_pact_json(value: &Value) -> Result<Self, DslError> {
        Self::from_pact_json_at(value, "generators", "$.generators")
    }

    /// Like [`Generators::from_pact_json`], naming `origin` and the JSON
    /// `path` of the attribute in errors.
    pub fn from_pact_json_at(value: &Value, origin: &str, path: &str) -> Result<Self, DslError> {
        let obj = value
            .as_object()
            .ok_or_else(|| DslError::invalid(origin, path, "generators must be an object"))?;
        let mut out = Generators::default();
        for (key, entry) in obj {
            let at = format!("{path}.{key}");
            let category = Category::parse(key).ok_or_else(|| {
                DslError::invalid(origin, &at, format!("unknown generator category '{key}'"))
            })?;
            out.read_category(category, entry, origin, &at)?;
        }
        Ok(out)
    }

    fn read_category(
        &mut self,
        category: Category,
        entry: &Value,
        origin: &str,
        at: &str,
    ) -> Result<(), DslError> {
        let map = entry
            .as_object()
            .ok_or_else(|| DslError::invalid(origin, at, "expected an object of generators"))?;
        if category.is_single() && map.contains_key("type") {
            let g = Generator::from_json(entry, origin, at)?;
            self.insert(category, "", g);
            return Ok(());
        }
        for (key, g) in map {
            let g = Generator::from_json(g, origin, &format!("{at}['{key}']"))?;
            self.insert(category, key.clone(), g);
        }
        Ok(())
    }

    /// The V4 JSON form.
    pub fn to_v4_json(&self) -> Value {
        let mut out = Map::new();
        for category in Category::ALL {
            let Some(entries) = self.categories.get(&category) else {
                continue;
            };
            let value = match (category.is_single(), entries.get("")) {
                (true, Some(g)) if entries.len() == 1 => g.to_json(),
                _ => Value::Object(
                    entries
                        .iter()
                        .map(|(k, g)| (k.clone(), g.to_json()))
                        .collect(),
                ),
            };
            out.insert(category.as_str().into(), value);
        }
        Value::Object(out)
    }

    /// True when there is no generator.
    pub fn is_empty(&self) -> bool {
        self.categories.values().all(IndexMap::is_empty)
    }

    /// Adds (or replaces) the generator of `key` in `category`.
    pub fn insert(&mut self, category: Category, key: impl Into<String>, generator: Generator) {
        self.categories
            .entry(category)
            .or_default()
            .insert(key.into(), generator);
    }

    /// Builder form of [`Generators::insert`].
    pub fn with(mut self, category: Category, key: impl Into<String>, g: Generator) -> Self {
        self.insert(category, key, g);
        self
    }

    /// The generator of `key` in `category`.
    pub fn get(&self, category: Category, key: &str) -> Option<&Generator> {
        self.categories.get(&category)?.get(key)
    }

    /// The generators of one category, in the order written.
    pub fn category(&self, category: Category) -> impl Iterator<Item = (&str, &Generator)> {
        self.categories
            .get(&category)
            .into_iter()
            .flat_map(|m| m.iter().map(|(k, g)| (k.as_str(), g)))
    }

    /// Every generator with its category and key.
    pub fn iter(&self) -> impl Iterator<Item = (Category, &str, &Generator)> {
        self.categories
            .iter()
            .flat_map(|(c, m)| m.iter().map(move |(k, g)| (*c, k.as_str(), g)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn categorised_generators_round_trip_with_single_valued_path_and_status() {
        let v = json!({
            "path": {"type": "ProviderState", "expression": "/path/${id}"},
            "header": {"X-TEST": {"type": "RandomInt", "min": 1, "max": 10}},
            "status": {"type": "RandomInt", "min": 201, "max": 599},
            "body": {"$.one": {"type": "Uuid", "format": "simple"}}
        });
        let g = Generators::from_pact_json(&v).expect("valid");
        assert_eq!(
            g.get(Category::Path, ""),
            Some(&Generator::ProviderState {
                expression: "/path/${id}".into(),
                data_type: None
            })
        );
        let back = g.to_v4_json();
        assert_eq!(back["path"]["type"], "ProviderState");
        assert_eq!(back["status"]["min"], 201);
        assert_eq!(Generators::from_pact_json(&back).ok(), Some(g));
    }

    #[test]
    fn an_unknown_category_is_an_error_naming_it() {
        let e = Generators::from_pact_json(&json!({"cookies": {}})).expect_err("must be refused");
        assert!(e.to_string().contains("cookies"));
    }

    #[test]
    fn empty_generators_are_empty() {
        let g = Generators::from_pact_json(&json!({})).expect("valid");
        assert!(g.is_empty());
        assert_eq!(g.to_v4_json(), json!({}));
    }
}

#[cfg(test)]
pub(crate) mod tests_support;
