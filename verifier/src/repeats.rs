//! The findings of an interaction's sends (its `repeat`s): one fault is
//! one finding however many sends show it, naming the sends it was seen
//! on ("on sends 1, 2 and 3: …"); its path is unchanged.

use crate::finding::Finding;

/// Findings in the order they were made, each with the sends (1-based)
/// it was seen on; `None` for a judgement over all sends (counters judged
/// once, the approval, the key), which is never merged.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    found: Vec<(Finding, Option<Vec<u32>>)>,
}

impl Seen {
    /// The findings of send `send` (0-based): one already seen on an
    /// earlier send — the same layer, code and path — gains this send.
    pub(crate) fn per_send(&mut self, send: u32, findings: impl IntoIterator<Item = Finding>) {
        for f in findings {
            let earlier = self.found.iter_mut().find_map(|(g, sends)| {
                let same = g.layer == f.layer && g.reason_code == f.reason_code && g.path == f.path;
                sends.as_mut().filter(|_| same)
            });
            match earlier {
                Some(sends) if !sends.contains(&(send + 1)) => sends.push(send + 1),
                Some(_) => {}
                None => self.found.push((f, Some(vec![send + 1]))),
            }
        }
    }

    /// Findings judged over all sends.
    pub(crate) fn once(&mut self, findings: impl IntoIterator<Item = Finding>) {
        self.found.extend(findings.into_iter().map(|f| (f, None)));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// The findings; with more than one send, each per-send finding names
    /// its sends.
    pub(crate) fn into_findings(self, times: u32) -> Vec<Finding> {
        self.found
            .into_iter()
            .map(|(mut f, sends)| {
                if let Some(sends) = sends.filter(|_| times > 1) {
                    f.detail = format!("on {}: {}", named(&sends), f.detail).into();
                }
                f
            })
            .collect()
    }
}

/// "send 2", "sends 1 and 3", "sends 1, 2 and 3".
fn named(sends: &[u32]) -> String {
    let numbers: Vec<String> = sends.iter().map(u32::to_string).collect();
    match numbers.as_slice() {
        [one] => format!("send {one}"),
        [rest @ .., last] => format!("sends {} and {last}", rest.join(", ")),
        [] => "no send".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Layer, codes};

    fn f(code: &'static str, path: &str, detail: &str) -> Finding {
        Finding::new(Layer::Schema, code, path, detail)
    }

    fn shown(seen: Seen, times: u32) -> Vec<(String, String)> {
        seen.into_findings(times)
            .into_iter()
            .map(|f| (f.path, f.detail.to_string()))
            .collect()
    }

    #[test]
    fn a_fault_on_every_send_is_one_finding_naming_them() {
        let mut seen = Seen::default();
        for n in 0..3 {
            seen.per_send(n, [f(codes::RESPONSE_MISMATCH, "$.a", &format!("got {n}"))]);
        }
        seen.per_send(1, [f(codes::RESPONSE_MISMATCH, "$.b", "got b")]);
        seen.once([f(codes::UNEXPECTED_SIDE_EFFECT, "records", "moved")]);
        assert_eq!(
            shown(seen, 3),
            [
                ("$.a".into(), "on sends 1, 2 and 3: got 0".into()),
                ("$.b".into(), "on send 2: got b".into()),
                ("records".into(), "moved".into()),
            ]
        );
    }

    #[test]
    fn a_single_send_is_reported_as_it_was_found() {
        let mut seen = Seen::default();
        seen.per_send(0, [f(codes::RESPONSE_MISMATCH, "$.a", "got a")]);
        assert_eq!(shown(seen, 1), [("$.a".into(), "got a".into())]);
        assert_eq!(named(&[1, 3]), "sends 1 and 3");
    }

    #[test]
    fn a_judgement_over_all_sends_is_never_merged() {
        let mut seen = Seen::default();
        seen.once([f(codes::RESPONSE_MISMATCH, "$.a", "over all")]);
        seen.per_send(0, [f(codes::RESPONSE_MISMATCH, "$.a", "first")]);
        seen.per_send(1, [f(codes::RESPONSE_MISMATCH, "$.a", "second")]);
        assert_eq!(
            shown(seen, 2),
            [
                ("$.a".into(), "over all".into()),
                ("$.a".into(), "on sends 1 and 2: first".into()),
            ]
        );
    }
}
