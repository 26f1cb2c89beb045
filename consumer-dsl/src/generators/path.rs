//! The Pact path syntax of body generator keys (`$.a.b[0]`, `$['x y']`,
//! `$.items[*].id`, `$.*`), and visiting the values a path selects.

use serde_json::Value;

/// One step of a path.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    Field(String),
    Index(usize),
    AnyField,
    AnyIndex,
}

/// Parses a path; `None` when it is not valid Pact path syntax. A key
/// without the leading `$` is taken relative to the root.
pub(super) fn parse(path: &str) -> Option<Vec<Step>> {
    let rest = path.trim();
    let mut rest = match rest.strip_prefix('$') {
        Some(r) => r,
        None if rest.is_empty() => return Some(Vec::new()),
        None if rest.starts_with('[') => rest,
        None => return parse(&format!("$.{rest}")),
    };
    let mut steps = Vec::new();
    while !rest.is_empty() {
        let (step, after) = if let Some(r) = rest.strip_prefix('.') {
            field(r)?
        } else if let Some(r) = rest.strip_prefix('[') {
            bracket(r)?
        } else {
            return None;
        };
        steps.push(step);
        rest = after;
    }
    Some(steps)
}

fn field(r: &str) -> Option<(Step, &str)> {
    let end = r.find(['.', '[']).unwrap_or(r.len());
    let name = &r[..end];
    let step = match name {
        "" => return None,
        "*" => Step::AnyField,
        n => Step::Field(n.to_string()),
    };
    Some((step, &r[end..]))
}

fn bracket(r: &str) -> Option<(Step, &str)> {
    if let Some(q) = r.strip_prefix('\'') {
        let end = q.find('\'')?;
        let after = q[end + 1..].strip_prefix(']')?;
        return Some((Step::Field(q[..end].to_string()), after));
    }
    let end = r.find(']')?;
    let inner = r[..end].trim();
    let step = match inner {
        "*" => Step::AnyIndex,
        n => Step::Index(n.parse().ok()?),
    };
    Some((step, &r[end + 1..]))
}

/// Calls `f` on every value `steps` selects in `value`.
pub(super) fn visit_mut(value: &mut Value, steps: &[Step], f: &mut dyn FnMut(&mut Value)) {
    let Some((step, rest)) = steps.split_first() else {
        f(value);
        return;
    };
    match (step, value) {
        (Step::Field(name), Value::Object(map)) => {
            if let Some(v) = map.get_mut(name) {
                visit_mut(v, rest, f);
            }
        }
        (Step::Index(i), Value::Array(items)) => {
            if let Some(v) = items.get_mut(*i) {
                visit_mut(v, rest, f);
            }
        }
        (Step::AnyField, Value::Object(map)) => {
            map.values_mut().for_each(|v| visit_mut(v, rest, f));
        }
        (Step::AnyIndex | Step::AnyField, Value::Array(items)) => {
            items.iter_mut().for_each(|v| visit_mut(v, rest, f));
        }
        _ => {}
    }
}

/// Copies of the values `path` (Pact path syntax) selects in `value`;
/// `None` when `path` is not a valid path.
pub fn values_at(value: &Value, path: &str) -> Option<Vec<Value>> {
    let steps = parse(path)?;
    let mut copy = value.clone();
    let mut out = Vec::new();
    visit_mut(&mut copy, &steps, &mut |v| out.push(v.clone()));
    Some(out)
}

/// Sets every value `path` selects in `value` to `new`; how many it set.
pub fn replace_at(value: &mut Value, path: &str, new: &Value) -> usize {
    let Some(steps) = parse(path) else { return 0 };
    let mut n = 0;
    visit_mut(value, &steps, &mut |v| {
        *v = new.clone();
        n += 1;
    });
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_dotted_bracketed_and_wildcard_steps() {
        assert_eq!(
            parse("$.a['b c'][2].*[*]"),
            Some(vec![
                Step::Field("a".into()),
                Step::Field("b c".into()),
                Step::Index(2),
                Step::AnyField,
                Step::AnyIndex,
            ])
        );
        assert_eq!(parse("$"), Some(vec![]));
        assert_eq!(parse("one"), Some(vec![Step::Field("one".into())]));
        assert_eq!(parse("$..x"), None);
        assert_eq!(parse("$[x]"), None);
        assert_eq!(parse("$['open"), None);
    }

    proptest::proptest! {
        #[test]
        fn no_key_makes_the_path_parser_panic(key in "[$.a-zé*'\\[\\]0-9 ]{0,20}") {
            let mut v = json!({"a": [{"b": 1}]});
            if let Some(steps) = parse(&key) {
                visit_mut(&mut v, &steps, &mut |x| *x = json!(null));
            }
        }
    }

    #[test]
    fn reads_and_replaces_the_selected_values() {
        let mut v = json!({"body": {"key": "k-1", "items": [1, 2]}});
        assert_eq!(values_at(&v, "$.body.key"), Some(vec![json!("k-1")]));
        assert_eq!(values_at(&v, "$.body.none"), Some(vec![]));
        assert_eq!(values_at(&v, "$..x"), None);
        assert_eq!(replace_at(&mut v, "$.body.items[*]", &json!(0)), 2);
        assert_eq!(v["body"]["items"], json!([0, 0]));
        assert_eq!(replace_at(&mut v, "$.body.none", &json!(0)), 0);
    }

    #[test]
    fn visits_every_selected_value() {
        let mut v = json!({"items": [{"id": 1}, {"id": 2}], "other": {"id": 3}});
        let steps = parse("$.items[*].id").expect("valid path");
        visit_mut(&mut v, &steps, &mut |x| *x = json!("seen"));
        assert_eq!(
            v,
            json!({"items": [{"id": "seen"}, {"id": "seen"}], "other": {"id": 3}})
        );
    }
}
