//! XML comparison under Pact rules (roxmltree).
//!
//! Elements compare by namespace URI and local name (prefixes do not
//! matter), attributes by name and value, text by the element's trimmed
//! direct text. Children are grouped by name: order between different
//! names does not matter, order within a name does. Unexpected attributes
//! and children are refused unless allowed (responses, messages). Where a
//! rule selects a child group (or a parent, for type rules), every actual
//! child is compared with the first expected one and min/max bound the
//! group size. Rule paths: `$.root.child['@attr']`, `$.root.child['#text']`.

use indexmap::IndexMap;
use roxmltree::{Document, Node};

use super::check::{check_list, check_str};
use super::json::MAX_DEPTH;
use super::mismatch::{Mismatch, MismatchKind};
use super::path::{Seg, render_location};
use super::rule::MatchingRule;
use super::rules::{Category, RuleList};

/// Compares two XML documents.
pub fn match_xml(
    expected: &str,
    actual: &str,
    rules: &Category,
    allow_unexpected: bool,
) -> Vec<Mismatch> {
    let (e, a) = match (parse(expected, "expected"), parse(actual, "actual")) {
        (Ok(e), Ok(a)) => (e, a),
        (Err(m), _) | (_, Err(m)) => return vec![Mismatch::new(MismatchKind::Body, "$", m)],
    };
    let mut m = XmlMatcher {
        rules,
        allow_unexpected,
        mismatches: Vec::new(),
    };
    let (er, ar) = (e.root_element(), a.root_element());
    let mut loc = vec![Seg::Key(er.tag_name().name())];
    m.compare_element(&mut loc, er, ar);
    m.mismatches
}

fn parse<'t>(text: &'t str, which: &str) -> Result<Document<'t>, String> {
    let refused = |e: &dyn std::fmt::Display| format!("The {which} body is not valid XML: {e}");
    super::xml_guard::check(text).map_err(|e| refused(&e))?;
    Document::parse(text).map_err(|e| refused(&e))
}

struct XmlMatcher<'r> {
    rules: &'r Category,
    allow_unexpected: bool,
    mismatches: Vec<Mismatch>,
}

/// An element's (namespace, local name).
type Name<'a> = (Option<&'a str>, &'a str);

/// The child elements of `n` by name, in order of first appearance: one
/// pass, so wide elements cost linear time.
fn group_by_name<'a, 'i>(n: Node<'a, 'i>) -> IndexMap<Name<'a>, Vec<Node<'a, 'i>>> {
    let mut groups: IndexMap<Name<'a>, Vec<Node<'a, 'i>>> = IndexMap::new();
    for child in n.children().filter(Node::is_element) {
        let tag = child.tag_name();
        groups
            .entry((tag.namespace(), tag.name()))
            .or_default()
            .push(child);
    }
    groups
}

fn same_name(e: Node<'_, '_>, a: Node<'_, '_>) -> bool {
    e.tag_name().name() == a.tag_name().name()
        && e.tag_name().namespace() == a.tag_name().namespace()
}

fn qualified(n: Node<'_, '_>) -> String {
    match n.tag_name().namespace() {
        Some(ns) => format!("{{{ns}}}{}", n.tag_name().name()),
        None => n.tag_name().name().to_string(),
    }
}

fn text_of<'a>(n: Node<'a, '_>) -> String {
    let mut out = String::new();
    for child in n.children().filter(Node::is_text) {
        out.push_str(child.text().unwrap_or_default());
    }
    out.trim().to_string()
}

impl<'r> XmlMatcher<'r> {
    /// The best rules for an XML location. Rule paths are written both
    /// without indexes (`$.a.b['@x']`) and with the index of each child
    /// (`$.a[*].b['@x']`); the location carries the indexes and both
    /// readings are weighed.
    fn best(&self, loc: &[Seg<'_>]) -> Option<&'r RuleList> {
        let plain: Vec<Seg<'_>> = loc
            .iter()
            .filter(|s| !matches!(s, Seg::Index(_)))
            .copied()
            .collect();
        match (
            self.rules.select_weighted(loc),
            self.rules.select_weighted(&plain),
        ) {
            (Some((wi, ri)), Some((wp, rp))) => Some(if wi >= wp { ri } else { rp }),
            (a, b) => a.or(b).map(|(_, r)| r),
        }
    }

    fn push(&mut self, loc: &[Seg<'_>], message: String) {
        let m = Mismatch::new(MismatchKind::Body, render_location(&reported(loc)), message);
        self.mismatches.push(m);
    }

    fn compare_element<'a>(&mut self, loc: &mut Vec<Seg<'a>>, e: Node<'a, '_>, a: Node<'a, '_>) {
        if loc.len() > MAX_DEPTH {
            return self.push(
                loc,
                format!("Nesting deeper than {MAX_DEPTH} levels is not compared"),
            );
        }
        if !same_name(e, a) {
            let msg = format!(
                "Expected element <{}> but received <{}>",
                qualified(e),
                qualified(a)
            );
            return self.push(loc, msg);
        }
        self.compare_attributes(loc, e, a);
        self.compare_children(loc, e, a);
        self.compare_text(loc, e, a);
    }

    fn compare_value(&mut self, loc: &[Seg<'_>], what: &str, ev: &str, av: &str) {
        match self.best(loc) {
            Some(list) => {
                if let Err(f) = check_list(list, |r| check_str(r, ev, av)) {
                    self.push(loc, f.message);
                    if let Some(last) = self.mismatches.last_mut() {
                        last.rule = Some(f.rule);
                    }
                }
            }
            None if ev == av => {}
            None => self.push(loc, format!("Expected {what} '{ev}' but received '{av}'")),
        }
        if let Some(last) = self.mismatches.last_mut().filter(|m| m.expected.is_none()) {
            last.expected = Some(ev.into());
            last.actual = Some(av.into());
        }
    }

    fn compare_attributes<'a>(&mut self, loc: &mut Vec<Seg<'a>>, e: Node<'a, '_>, a: Node<'a, '_>) {
        for ea in e.attributes() {
            loc.push(Seg::Attr(ea.name()));
            match a
                .attributes()
                .find(|aa| aa.name() == ea.name() && aa.namespace() == ea.namespace())
            {
                Some(aa) => self.compare_value(loc, "attribute value", ea.value(), aa.value()),
                None => self.push(
                    loc,
                    format!("Expected attribute '{}' but it was missing", ea.name()),
                ),
            }
            loc.pop();
        }
        if self.allow_unexpected {
            return;
        }
        for aa in a.attributes() {
            let known = e
                .attributes()
                .any(|ea| aa.name() == ea.name() && aa.namespace() == ea.namespace());
            if !known {
                loc.push(Seg::Attr(aa.name()));
                self.push(loc, format!("Unexpected attribute '{}'", aa.name()));
                loc.pop();
            }
        }
    }

    fn compare_text<'a>(&mut self, loc: &mut Vec<Seg<'a>>, e: Node<'a, '_>, a: Node<'a, '_>) {
        let (et, at) = (text_of(e), text_of(a));
        loc.push(Seg::Text);
        if et != at || self.best(loc).is_some() {
            self.compare_value(loc, "text", &et, &at);
        }
        loc.pop();
    }

    fn compare_children<'a>(&mut self, loc: &mut Vec<Seg<'a>>, e: Node<'a, '_>, a: Node<'a, '_>) {
        let expected = group_by_name(e);
        let actual = group_by_name(a);
        let parent_typed = self.best(loc).is_some();
        for (name, eg) in &expected {
            let ag = actual.get(name).map(Vec::as_slice).unwrap_or_default();
            loc.push(Seg::Key(name.1));
            self.compare_group(loc, eg, ag);
            loc.pop();
        }
        if self.allow_unexpected && !parent_typed {
            return;
        }
        let unexpected = actual
            .iter()
            .filter(|(name, _)| !expected.contains_key(*name))
            .flat_map(|(_, group)| group);
        for ac in unexpected {
            loc.push(Seg::Key(ac.tag_name().name()));
            self.push(loc, format!("Unexpected element <{}>", qualified(*ac)));
            loc.pop();
        }
    }

    /// A group under a rule: min/max bound its size and every actual child
    /// is compared with the first expected one.
    fn compare_group_typed<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        list: &RuleList,
        first: Node<'a, '_>,
        ag: &[Node<'a, '_>],
    ) {
        for rule in &list.rules {
            if let MatchingRule::Type { min, max } = rule
                && let Err(msg) = super::check::check_size(ag.len(), *min, *max, || {
                    format!("<{}> elements", qualified(first))
                })
            {
                self.push(loc, msg);
            }
        }
        for (i, ac) in ag.iter().enumerate() {
            self.compare_child(loc, i, first, *ac);
        }
    }

    /// Compares the `i`-th child of a group; `loc` ends with the group's
    /// name and the child is located at `parent[i].name`.
    fn compare_child<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        i: usize,
        e: Node<'a, '_>,
        a: Node<'a, '_>,
    ) {
        let Some(name) = loc.pop() else {
            return;
        };
        loc.push(Seg::Index(i));
        loc.push(name);
        self.compare_element(loc, e, a);
        loc.pop();
        loc.pop();
        loc.push(name);
    }

    fn compare_group<'a>(
        &mut self,
        loc: &mut Vec<Seg<'a>>,
        eg: &[Node<'a, '_>],
        ag: &[Node<'a, '_>],
    ) {
        let Some(first) = eg.first().copied() else {
            return;
        };
        if let Some(list) = self.best(loc) {
            return self.compare_group_typed(loc, list, first, ag);
        }
        for (i, ec) in eg.iter().enumerate() {
            match ag.get(i) {
                Some(ac) => self.compare_child(loc, i, *ec, *ac),
                // At the parent, as Pact reports a missing child (and a missing JSON key).
                None => self.push(
                    &loc[..loc.len().saturating_sub(1)],
                    format!("Expected child <{}/> but was missing", ec.tag_name().name()),
                ),
            }
        }
        if !self.allow_unexpected && ag.len() > eg.len() {
            let msg = format!(
                "Expected {} <{}> element(s) but received {}",
                eg.len(),
                qualified(first),
                ag.len()
            );
            self.push(loc, msg);
        }
    }
}

/// A location as reported, in Pact's form: `$.a.b['#text']` for the first
/// child of a name, `$.a.b[1]` for a later one. While comparing, the index
/// of a child sits before its name (`$.a[1].b`, for rule selection).
fn reported<'a>(loc: &[Seg<'a>]) -> Vec<Seg<'a>> {
    let mut out = Vec::with_capacity(loc.len());
    let mut index = None;
    for seg in loc {
        match seg {
            Seg::Index(i) => index = Some(*i),
            other => {
                out.push(*other);
                if let Some(i) = index.take().filter(|i| *i > 0) {
                    out.push(Seg::Index(i));
                }
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "xml_tests.rs"]
mod tests;
