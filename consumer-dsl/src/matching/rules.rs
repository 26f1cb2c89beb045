//! Rule lists and categories: the `matchingRules` of a request, response
//! or message, read from V2's flat form or the V3/V4 categorised form and
//! written as V4 JSON.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::path::{DocPath, Seg};
use super::rule::MatchingRule;
use crate::DslError;
use crate::model::PactSpec;

#[path = "rules_flat.rs"]
mod flat;

/// Why rules were refused: a path below `matchingRules` and a reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub at: String,
    pub message: String,
}

impl RuleError {
    fn new(message: impl Into<String>) -> Self {
        RuleError {
            at: String::new(),
            message: message.into(),
        }
    }

    fn under(mut self, prefix: &str) -> Self {
        self.at.insert_str(0, prefix);
        self
    }
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// How the rules of one list combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Combine {
    /// Every rule must pass.
    #[default]
    And,
    /// One passing rule is enough.
    Or,
}

/// The rules at one path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleList {
    pub rules: Vec<MatchingRule>,
    pub combine: Combine,
}

impl RuleList {
    /// A list of one rule.
    pub fn of(rule: MatchingRule) -> Self {
        RuleList {
            rules: vec![rule],
            combine: Combine::And,
        }
    }

    /// True when some rule is a `type`-like rule (type, values, eachValue).
    pub fn has_type_rule(&self) -> bool {
        self.rules.iter().any(MatchingRule::is_type_like)
    }

    /// Reads `{"matchers": [...], "combine": ".."}`, a list of rules, or a
    /// single rule object.
    pub fn from_json(v: &Value) -> Result<Self, RuleError> {
        let (items, combine) = match v {
            Value::Object(o) if o.contains_key("matchers") => {
                let combine = match o.get("combine") {
                    None => Combine::And,
                    Some(Value::String(c)) if c.eq_ignore_ascii_case("and") => Combine::And,
                    Some(Value::String(c)) if c.eq_ignore_ascii_case("or") => Combine::Or,
                    Some(Value::String(other)) => {
                        return Err(
                            RuleError::new(format!("unknown combine '{other}'")).under(".combine")
                        );
                    }
                    // a number or null used to read as AND: a rule list the
                    // consumer did not write
                    Some(other) => {
                        return Err(RuleError::new(format!(
                            "must be \"AND\" or \"OR\", not {other}"
                        ))
                        .under(".combine"));
                    }
                };
                let items = o
                    .get("matchers")
                    .and_then(Value::as_array)
                    .ok_or_else(|| RuleError::new("must be a list").under(".matchers"))?;
                (items.as_slice(), combine)
            }
            Value::Array(items) => (items.as_slice(), Combine::And),
            Value::Object(_) => (std::slice::from_ref(v), Combine::And),
            _ => return Err(RuleError::new("a rule list must be an object or a list")),
        };
        let rules = items
            .iter()
            .enumerate()
            .map(|(i, r)| {
                MatchingRule::from_json(r)
                    .map_err(|e| RuleError::new(e).under(&format!(".matchers[{i}]")))
            })
            .collect::<Result<_, _>>()?;
        Ok(RuleList { rules, combine })
    }

    /// The V4 JSON form.
    pub fn to_json(&self) -> Value {
        let combine = match self.combine {
            Combine::And => "AND",
            Combine::Or => "OR",
        };
        let matchers: Vec<Value> = self.rules.iter().map(MatchingRule::to_json).collect();
        json!({"combine": combine, "matchers": matchers})
    }
}

/// One entry of a category: the path as written, parsed, and its rules.
#[derive(Debug, Clone, PartialEq)]
pub struct PathRules {
    pub key: String,
    pub path: DocPath,
    pub rules: RuleList,
}

/// The rules of one category (`body`, `header`, …), by path.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Category {
    entries: Vec<PathRules>,
}

impl Category {
    /// The entries in the order written.
    pub fn entries(&self) -> &[PathRules] {
        &self.entries
    }

    /// True when the category holds no rule.
    pub fn is_empty(&self) -> bool {
        self.entries.iter().all(|e| e.rules.rules.is_empty())
    }

    /// Adds a rule at `key` (a path such as `$.items[*].id`, or a header or
    /// query name), after any rules already there.
    pub fn add(&mut self, key: &str, rule: MatchingRule) -> Result<(), String> {
        if let Some(e) = self.entries.iter_mut().find(|e| e.key == key) {
            e.rules.rules.push(rule);
            return Ok(());
        }
        let path = DocPath::parse(key).map_err(|e| e.to_string())?;
        self.entries.push(PathRules {
            key: key.to_string(),
            path,
            rules: RuleList::of(rule),
        });
        Ok(())
    }

    /// Sets the whole rule list at `key`.
    pub fn set(&mut self, key: &str, rules: RuleList) -> Result<(), String> {
        let path = DocPath::parse(key).map_err(|e| e.to_string())?;
        self.entries.retain(|e| e.key != key);
        self.entries.push(PathRules {
            key: key.to_string(),
            path,
            rules,
        });
        Ok(())
    }

    /// Builds a category from (key, rules) pairs in one pass; a repeated
    /// key replaces the earlier entry and moves to the end, as
    /// [`Category::set`] does. Linear, so a pact file with many rule paths
    /// cannot make reading quadratic.
    pub(super) fn from_pairs<E>(
        pairs: impl IntoIterator<Item = Result<(String, RuleList), E>>,
        parse_error: impl Fn(&str, String) -> E,
    ) -> Result<Self, E> {
        let mut by_key: IndexMap<String, PathRules> = IndexMap::new();
        for pair in pairs {
            let (key, rules) = pair?;
            let path = DocPath::parse(&key).map_err(|e| parse_error(&key, e.to_string()))?;
            if by_key.contains_key(&key) {
                by_key.shift_remove(&key);
            }
            let entry = PathRules {
                key: key.clone(),
                path,
                rules,
            };
            by_key.insert(key, entry);
        }
        Ok(Category {
            entries: by_key.into_values().collect(),
        })
    }

    /// Reads `{path: rule list, ...}`, or a bare rule list (path, method and
    /// status categories), which applies at the root.
    pub fn from_json(v: &Value) -> Result<Self, RuleError> {
        let o = v
            .as_object()
            .ok_or_else(|| RuleError::new("a rule category must be an object"))?;
        let mut category = Category::default();
        if o.contains_key("matchers") || o.contains_key("match") {
            category
                .set("$", RuleList::from_json(v)?)
                .map_err(RuleError::new)?;
            return Ok(category);
        }
        let pairs = o.iter().map(|(key, list)| {
            let rules = RuleList::from_json(list).map_err(|e| e.under(&format!("['{key}']")))?;
            Ok((key.clone(), rules))
        });
        Category::from_pairs(pairs, |key, e| {
            RuleError::new(e).under(&format!("['{key}']"))
        })
    }

    /// The V4 JSON form: a map of path to rule list.
    pub fn to_json(&self) -> Value {
        let map: Map<String, Value> = self
            .entries
            .iter()
            .map(|e| (e.key.clone(), e.rules.to_json()))
            .collect();
        Value::Object(map)
    }

    /// True when some rule path selects `location` or one of its parents.
    pub fn is_defined(&self, location: &[Seg<'_>]) -> bool {
        self.entries.iter().any(|e| e.path.weight(location) > 0)
    }

    /// The rules of the heaviest path selecting `location` (ties go to the
    /// longer path, then to the later entry).
    pub fn select_best(&self, location: &[Seg<'_>]) -> Option<&RuleList> {
        self.select_weighted(location).map(|(_, r)| r)
    }

    /// Like [`Category::select_best`], with the (weight, path length) that
    /// won, so callers can compare candidates from several locations.
    pub fn select_weighted(&self, location: &[Seg<'_>]) -> Option<((u64, usize), &RuleList)> {
        let mut best: Option<(u64, usize, &RuleList)> = None;
        for e in &self.entries {
            let w = e.path.weight(location);
            if w == 0 {
                continue;
            }
            let len = e.path.tokens().len();
            if best.is_none_or(|(bw, bl, _)| (w, len) >= (bw, bl)) {
                best = Some((w, len, &e.rules));
            }
        }
        best.map(|(w, l, r)| ((w, l), r))
    }

    /// The rules for a header, query parameter or metadata key `name`.
    pub fn for_name(&self, name: &str, ignore_case: bool) -> Option<&RuleList> {
        let same = |a: &str| {
            if ignore_case {
                a.eq_ignore_ascii_case(name)
            } else {
                a == name
            }
        };
        self.entries.iter().find_map(|e| match e.path.tokens() {
            [super::path::PathToken::Field(f)] if same(f) => Some(&e.rules),
            _ => None,
        })
    }

    /// The rules at the root (path, method and status categories).
    pub fn root(&self) -> Option<&RuleList> {
        self.entries
            .iter()
            .find(|e| e.path.tokens().is_empty() || e.key.is_empty())
            .map(|e| &e.rules)
    }
}

/// The matching rules of a request, response or message, by category
/// (`body`, `header`, `query`, `path`, `method`, `status`, `metadata`,
/// `content`, and any other name as written).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MatchingRules {
    categories: IndexMap<String, Category>,
}

impl MatchingRules {
    /// Parses the `matchingRules` attribute of a request/response/message of
    /// the given specification: V2's flat `{"$.body.x": {...}}` map or the
    /// V3/V4 categorised form.
    pub fn from_pact_json(value: &Value, spec: PactSpec) -> Result<Self, DslError> {
        let o = value
            .as_object()
            .ok_or_else(|| invalid(RuleError::new("must be an object")))?;
        let flat = spec <= PactSpec::V2 || o.keys().any(|k| k.starts_with('$'));
        if flat {
            return flat::from_flat(o);
        }
        let mut rules = MatchingRules::default();
        for (name, v) in o {
            let category =
                Category::from_json(v).map_err(|e| invalid(e.under(&format!(".{name}"))))?;
            rules.categories.insert(name.clone(), category);
        }
        Ok(rules)
    }

    /// The V4 JSON form.
    pub fn to_v4_json(&self) -> Value {
        let map: Map<String, Value> = self
            .categories
            .iter()
            .filter(|(_, c)| !c.is_empty())
            .map(|(name, c)| {
                let v = match (name.as_str(), c.entries()) {
                    ("path" | "method" | "status", [only]) if only.path.tokens().is_empty() => {
                        only.rules.to_json()
                    }
                    _ => c.to_json(),
                };
                (name.clone(), v)
            })
            .collect();
        Value::Object(map)
    }

    /// True when there is no rule in any category.
    pub fn is_empty(&self) -> bool {
        self.categories.values().all(Category::is_empty)
    }

    /// The category `name`, if it has been written.
    pub fn category(&self, name: &str) -> Option<&Category> {
        self.categories.get(name)
    }

    /// The category `name`, created empty if needed.
    pub fn category_mut(&mut self, name: &str) -> &mut Category {
        self.categories.entry(name.to_string()).or_default()
    }

    /// The category names in the order written.
    pub fn category_names(&self) -> impl Iterator<Item = &str> {
        self.categories.keys().map(String::as_str)
    }

    /// Adds `rule` at `path` of `category` (builder API): e.g.
    /// `add_rule("body", "$.items[*].id", MatchingRule::Integer)`.
    pub fn add_rule(
        &mut self,
        category: &str,
        path: &str,
        rule: MatchingRule,
    ) -> Result<&mut Self, DslError> {
        self.category_mut(category)
            .add(path, rule)
            .map_err(|e| DslError::invalid("matchingRules", format!("$.{category}"), e))?;
        Ok(self)
    }

    /// The body rules; messages may call the category `content`.
    pub fn body(&self) -> Option<&Category> {
        self.category("body").or_else(|| self.category("content"))
    }
}

fn invalid(e: RuleError) -> DslError {
    DslError::invalid(
        "matchingRules",
        format!("$.matchingRules{}", e.at),
        e.message,
    )
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
