//! Rack-style nested query strings, as the Pact clients send them:
//! `q[][pacticipant]=Foo&q[][version]=1&q[][pacticipant]=Bar&latestby=cvp`.
//!
//! `name[][key]=v` appends to a list of maps; a new map starts when `key`
//! already appears in the last one (so order matters, as in Rack).
//! `name[]=v` appends to a list of plain values; `name=v` is a scalar (the
//! last one wins). Brackets may come encoded (`%5B%5D`) or not.

use std::collections::BTreeMap;

use percent_encoding::percent_decode_str;

/// One map of a `name[][key]=value` list, keys in the order they came.
pub type Element = Vec<(String, String)>;

/// A parsed query string.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RackQuery {
    scalars: BTreeMap<String, String>,
    values: BTreeMap<String, Vec<String>>,
    elements: BTreeMap<String, Vec<Element>>,
}

impl RackQuery {
    /// Parses a raw query string (without the `?`).
    pub fn parse(raw: &str) -> RackQuery {
        let mut query = RackQuery::default();
        for pair in raw.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            query.add(&decode(key), decode(value));
        }
        query
    }

    /// The same query with `name=value` set (the last one wins).
    pub fn with_scalar(&self, name: &str, value: &str) -> RackQuery {
        let mut query = self.clone();
        query.scalars.insert(name.to_owned(), value.to_owned());
        query
    }

    fn add(&mut self, key: &str, value: String) {
        let Some((name, rest)) = key.split_once('[') else {
            self.scalars.insert(key.to_owned(), value);
            return;
        };
        if rest == "]" {
            self.values.entry(name.to_owned()).or_default().push(value);
            return;
        }
        let sub = rest
            .strip_prefix("][")
            .and_then(|r| r.strip_suffix(']'))
            .filter(|s| !s.contains('[') && !s.contains(']'));
        let Some(sub) = sub else {
            // `name[x]=v` or deeper nesting: not a shape the matrix reads; keep it visible as a scalar.
            self.scalars.insert(key.to_owned(), value);
            return;
        };
        let list = self.elements.entry(name.to_owned()).or_default();
        let starts_new = list
            .last()
            .is_none_or(|last| last.iter().any(|(k, _)| k == sub));
        if starts_new {
            list.push(Vec::new());
        }
        if let Some(last) = list.last_mut() {
            last.push((sub.to_owned(), value));
        }
    }

    /// The value of scalar `name` (`latestby=cvp`).
    pub fn scalar(&self, name: &str) -> Option<&str> {
        self.scalars.get(name).map(String::as_str)
    }

    /// The values of `name[]=…`, in order.
    pub fn values(&self, name: &str) -> &[String] {
        self.values.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The maps of `name[][key]=…`, in order.
    pub fn elements(&self, name: &str) -> &[Element] {
        self.elements.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every scalar name given (to refuse unknown parameters if wanted).
    pub fn scalar_names(&self) -> impl Iterator<Item = &str> {
        self.scalars.keys().map(String::as_str)
    }
}

/// The value of `key` in one element.
pub fn get<'a>(element: &'a Element, key: &str) -> Option<&'a str> {
    element
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn decode(text: &str) -> String {
    let spaced = text.replace('+', " ");
    percent_decode_str(&spaced).decode_utf8_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(e: &Element) -> Vec<(&str, &str)> {
        e.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }

    #[test]
    fn a_repeated_key_starts_a_new_selector() {
        let q = RackQuery::parse(
            "q[][pacticipant]=Foo&q[][version]=1&q[][pacticipant]=Bar&q[][version]=2&latestby=cvpv",
        );
        let e = q.elements("q");
        assert_eq!(e.len(), 2);
        assert_eq!(pairs(&e[0]), [("pacticipant", "Foo"), ("version", "1")]);
        assert_eq!(pairs(&e[1]), [("pacticipant", "Bar"), ("version", "2")]);
        assert_eq!(q.scalar("latestby"), Some("cvpv"));
    }

    #[test]
    fn encoded_brackets_and_plus_signs_are_decoded() {
        let q =
            RackQuery::parse("q%5B%5D%5Bpacticipant%5D=Order+Service&q%5B%5D%5Bversion%5D=1%2B2");
        assert_eq!(
            pairs(&q.elements("q")[0]),
            [("pacticipant", "Order Service"), ("version", "1+2")]
        );
    }

    #[test]
    fn plain_lists_and_element_lists_are_kept_apart() {
        let q =
            RackQuery::parse("ignore[]=Bar&ignore[][pacticipant]=Baz&success[]=true&success[]=");
        assert_eq!(q.values("ignore"), ["Bar"]);
        assert_eq!(pairs(&q.elements("ignore")[0]), [("pacticipant", "Baz")]);
        assert_eq!(q.values("success"), ["true", ""]);
    }

    #[test]
    fn keys_without_values_and_empty_pairs_are_tolerated() {
        let q = RackQuery::parse("&latest&tag=prod&&");
        assert_eq!(q.scalar("latest"), Some(""));
        assert_eq!(q.scalar("tag"), Some("prod"));
        assert!(q.elements("q").is_empty());
    }

    #[test]
    fn the_last_scalar_wins() {
        let q = RackQuery::parse("limit=5&limit=7");
        assert_eq!(q.scalar("limit"), Some("7"));
    }
}
