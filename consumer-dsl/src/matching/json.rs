//! JSON comparison under Pact rules.
//!
//! Without a rule, objects must hold every expected key (unexpected keys
//! are refused unless allowed: responses and messages allow them, requests
//! do not), lists must be equal in length and item by item, and leaves
//! equal. Where a rule path selects a value or one of its parents, the
//! best rule decides: type rules let lists vary in length (within min/max)
//! with every item compared to the example (objects under a type rule
//! still refuse unexpected keys in requests, as pact-reference and
//! pact-jvm do); `values`/`eachKey`/`eachValue` judge every key or value;
//! `arrayContains` looks for each variant anywhere in the list.
//!
//! The location is a stack of borrowed segments; path strings are built
//! only for mismatches.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::check::{Failure, check_json, check_list, check_str};
use super::mismatch::{Mismatch, MismatchKind, describe, key_set_mismatch};
use super::path::{Seg, render_location};
use super::rule::{ArrayContainsVariant, MatchingRule};
use super::rules::{Category, Combine, RuleList};

/// Deepest nesting compared; deeper input is reported, not recursed into.
pub const MAX_DEPTH: usize = 256;

/// Compares `actual` with `expected` under the body `rules`.
///
/// Reusable on any JSON (A2A artifact data, MCP `structuredContent`):
/// rule paths are relative to the root of `expected`.
pub fn match_json(
    expected: &Value,
    actual: &Value,
    rules: &Category,
    allow_unexpected_keys: bool,
) -> Vec<Mismatch> {
    let mut m = JsonMatcher::new(rules, allow_unexpected_keys, MismatchKind::Body);
    m.compare(&mut Vec::new(), expected, actual);
    m.mismatches
}

/// One comparison run.
pub(super) struct JsonMatcher<'r> {
    rules: &'r Category,
    allow_unexpected_keys: bool,
    kind: MismatchKind,
    pub(super) mismatches: Vec<Mismatch>,
}

impl<'r> JsonMatcher<'r> {
    pub(super) fn new(
        rules: &'r Category,
        allow_unexpected_keys: bool,
        kind: MismatchKind,
    ) -> Self {
        JsonMatcher {
            rules,
            allow_unexpected_keys,
            kind,
            mismatches: Vec::new(),
        }
    }

    fn push(&mut self, loc: &[Seg<'_>], e: Option<&Value>, a: Option<&Value>, msg: String) {
        let m = Mismatch::new(self.kind, render_location(loc), msg).values(e.cloned(), a.cloned());
        self.mismatches.push(m);
    }

    fn push_failure(&mut self, loc: &[Seg<'_>], e: &Value, a: &Value, f: Failure) {
        self.push(loc, Some(e), Some(a), f.message);
        if let Some(last) = self.mismatches.last_mut() {
            last.rule = Some(f.rule);
        }
    }

    pub(super) fn compare<'a>(&mut self, loc: &mut Vec<Seg<'a>>, e: &'a Value, a: &'a Value) {
        if loc.len() > MAX_DEPTH {
            let msg = format!("Nesting deeper than {MAX_DEPTH} levels is not compared");
            self.push(loc, None, None, msg);
            return;
        }
        let weighted = self.rules.select_weighted(loc);
        let best = weighted.map(|(_, r)| r);
        match (e, a) {
            (Value::Object(em), Value::Object(am)) => self.compare_maps(loc, best, em, am, e, a),
            (Value::Array(el), Value::Array(al)) => {
                // a rule of an ancestor's path: its size bounds are not this list's
                let inherited = weighted
                    .filter(|((_, len), _)| *len != loc.len())
                    .map(|(_, r)| cascaded(r));
                let best = inherited.as_deref().or(best);
                self.compare_lists(loc, best, el, al, e, a)
            }
            (Value::Object(_) | Value::Array(_), _) => self.type_mismatch(loc, e, a),
            _ => self.compare_leaf(loc, best, e, a),
        }
    }

    /// An expected object or list met another kind of value: whatever the
    /// rules, that is a type mismatch (pact-reference `compare_json`).
    fn type_mismatch(&mut self, loc: &[Seg<'_>], e: &Value, a: &Value) {
        let msg = format!(
            "Type mismatch: Expected {} to be the same type as {}",
            describe(a),
            describe(e)
        );
        self.push(loc, Some(e), Some(a), msg);
    }

    fn compare_leaf(&mut self, loc: &[Seg<'_>], best: Option<&RuleList>, e: &Value, a: &Value) {
        match best {
            Some(list) => {
                if let Err(f) = check_list(list, |r| check_json(r, e, a)) {
                    self.push_failure(loc, e, a, f);
                }
            }
            None if e == a => {}
            // no rule: Pact's equality matcher, and its sentence
            None => {
                let msg = format!("Expected {} to be equal to {}", describe(a), describe(e));
                self.push(loc, Some(e), Some(a), msg);
            }
        }
    }

    fn compare_maps<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        best: Option<&RuleList>,
        em: &'a Map<String, Value>,
        am: &'a Map<String, Value>,
        e: &Value,
        a: &Value,
    ) {
        let Some(list) = best else {
            return self.compare_keys(loc, em, am, self.allow_unexpected_keys);
        };
        if let Err(f) = check_list(list, |r| check_json(r, e, a)) {
            self.push_failure(loc, e, a, f);
        }
        let mut per_entry = false;
        for rule in &list.rules {
            match rule {
                MatchingRule::EachKey(each) => {
                    self.each_key(loc, &each.rules, am);
                    per_entry = true;
                }
                MatchingRule::Values | MatchingRule::EachValue(_) => per_entry = true,
                _ => {}
            }
        }
        if per_entry {
            return self.compare_each_entry(loc, list, em, am);
        }
        self.compare_keys(loc, em, am, self.allow_unexpected_keys);
    }

    /// `values`/`eachKey`/`eachValue`: each actual entry against the
    /// expected entry of the same key, or the first one.
    fn compare_each_entry<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        list: &RuleList,
        em: &'a Map<String, Value>,
        am: &'a Map<String, Value>,
    ) {
        let first = em.values().next();
        for (k, av) in am {
            let Some(ev) = em.get(k).or(first) else {
                continue;
            };
            loc.push(Seg::Key(k));
            self.each_value_rules(loc, list, ev, av);
            self.compare(loc, ev, av);
            loc.pop();
        }
    }

    /// Every expected key must be present (and, unless allowed, no other):
    /// otherwise one mismatch names both key sets, as pact-reference does,
    /// then the keys missing and not expected, which are also its values.
    fn compare_keys<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        em: &'a Map<String, Value>,
        am: &'a Map<String, Value>,
        allow_unexpected: bool,
    ) {
        let at = self.mismatches.len();
        let mut missing: Vec<&str> = Vec::new();
        // Actual objects usually hold the keys in the expected order:
        // the entry at the same position is tried before a hash lookup.
        let mut in_order = am.iter();
        for (k, ev) in em {
            let found = match in_order.next() {
                Some((ak, av)) if ak == k => Some(av),
                _ => am.get(k),
            };
            match found {
                Some(av) => {
                    loc.push(Seg::Key(k));
                    self.compare(loc, ev, av);
                    loc.pop();
                }
                None => missing.push(k),
            }
        }
        // Every expected key present: extra keys exist iff the map is larger.
        let unexpected: Vec<&str> =
            if allow_unexpected || (missing.is_empty() && am.len() <= em.len()) {
                Vec::new()
            } else {
                am.keys()
                    .filter(|k| !em.contains_key(*k))
                    .map(String::as_str)
                    .collect()
            };
        if missing.is_empty() && unexpected.is_empty() {
            return;
        }
        let m = key_set_mismatch(
            self.kind,
            render_location(loc),
            em,
            am,
            &missing,
            &unexpected,
        );
        self.mismatches.insert(at, m);
    }

    fn each_key<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        inner: &[MatchingRule],
        am: &'a Map<String, Value>,
    ) {
        let list = RuleList {
            rules: inner.to_vec(),
            combine: Combine::And,
        };
        for k in am.keys() {
            if let Err(f) = check_list(&list, |r| check_str(r, "", k)) {
                loc.push(Seg::Key(k));
                let key = Value::String(k.clone());
                self.push_failure(loc, &Value::Null, &key, f);
                loc.pop();
            }
        }
    }

    /// Applies the inner rules of an `eachValue` rule to one value.
    fn each_value_rules(&mut self, loc: &[Seg<'_>], list: &RuleList, ev: &Value, av: &Value) {
        for rule in &list.rules {
            if let MatchingRule::EachValue(each) = rule {
                let inner = RuleList {
                    rules: each.rules.clone(),
                    combine: Combine::And,
                };
                if let Err(f) = check_list(&inner, |r| check_json(r, ev, av)) {
                    self.push_failure(loc, ev, av, f);
                }
            }
        }
    }

    fn compare_lists<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        best: Option<&RuleList>,
        el: &'a [Value],
        al: &'a [Value],
        e: &Value,
        a: &Value,
    ) {
        let Some(list) = best else {
            return self.compare_items_exactly(loc, el, al, e, a);
        };
        if let Err(f) = check_list(list, |r| check_json(r, e, a)) {
            self.push_failure(loc, e, a, f);
        }
        for rule in &list.rules {
            if let MatchingRule::ArrayContains(variants) = rule {
                return self.array_contains(loc, variants, el, al);
            }
        }
        let Some(first) = el.first() else {
            return;
        };
        for (i, av) in al.iter().enumerate() {
            let ev = el.get(i).unwrap_or(first);
            loc.push(Seg::Index(i));
            self.each_value_rules(loc, list, ev, av);
            self.compare(loc, ev, av);
            loc.pop();
        }
    }

    fn compare_items_exactly<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        el: &'a [Value],
        al: &'a [Value],
        e: &Value,
        a: &Value,
    ) {
        for (i, ev) in el.iter().enumerate() {
            loc.push(Seg::Index(i));
            match al.get(i) {
                Some(av) => self.compare(loc, ev, av),
                None if self.rules.is_defined(loc) => {}
                None => {
                    let msg = format!("Expected {} but it was missing", describe(ev));
                    self.push(loc, Some(ev), None, msg);
                }
            }
            loc.pop();
        }
        if el.len() < al.len() {
            let msg = format!(
                "Expected a List with {} elements but received {} elements",
                el.len(),
                al.len()
            );
            self.push(loc, Some(e), Some(a), msg);
        }
    }

    fn array_contains(
        &mut self,
        loc: &[Seg<'_>],
        variants: &[ArrayContainsVariant],
        el: &[Value],
        al: &[Value],
    ) {
        for variant in variants {
            let Some(ev) = el.get(variant.index) else {
                continue;
            };
            let found = al.iter().any(|av| {
                let mut sub =
                    JsonMatcher::new(&variant.rules, self.allow_unexpected_keys, self.kind);
                sub.compare(&mut Vec::with_capacity(8), ev, av);
                sub.mismatches.is_empty()
            });
            if !found {
                let msg = format!(
                    "Variant at index {} ({}) was not found in the actual list",
                    variant.index,
                    crate::canonical::canonical_json(ev)
                );
                self.push(loc, Some(ev), None, msg);
            }
        }
    }
}

/// The rules a list inherits from an ancestor's path (pact-reference's
/// "cascaded" rules): a `type` rule's size bounds apply only to the list
/// its path names, so they are dropped here.
fn cascaded(list: &RuleList) -> Cow<'_, RuleList> {
    let sized = |r: &MatchingRule| matches!(r, MatchingRule::Type { min, max } if min.is_some() || max.is_some());
    if !list.rules.iter().any(sized) {
        return Cow::Borrowed(list);
    }
    let rules = list
        .rules
        .iter()
        .map(|r| match r {
            MatchingRule::Type { .. } => MatchingRule::Type {
                min: None,
                max: None,
            },
            other => other.clone(),
        })
        .collect();
    Cow::Owned(RuleList {
        rules,
        combine: list.combine,
    })
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
