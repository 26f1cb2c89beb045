//! Every expected part of an A2A task with its JSON path, for checks that
//! look at all of them (embedded schemas, media types).

use super::a2a::{A2aTask, PartExpectation, TaskStep};

/// The parts of `steps`, paths starting with `prefix` (`.steps`).
fn step_parts<'a>(
    prefix: &str,
    steps: &'a [TaskStep],
    out: &mut Vec<(String, &'a PartExpectation)>,
) {
    for (i, step) in steps.iter().enumerate() {
        let (at, parts) = match step {
            TaskStep::Status(s) => (
                format!("{prefix}[{i}].status.messageParts"),
                &s.message_parts,
            ),
            TaskStep::Artifact(a) => (format!("{prefix}[{i}].artifact.parts"), &a.parts),
            TaskStep::Message(m) => (format!("{prefix}[{i}].message.parts"), &m.parts),
        };
        out.extend(
            parts
                .iter()
                .enumerate()
                .map(|(j, p)| (format!("{at}[{j}]"), p)),
        );
    }
}

impl A2aTask {
    /// Every expected part, with its path relative to the interaction
    /// (`.steps[2].artifact.parts[0]`, `.followUps[1].expect.steps[0]…`).
    pub fn part_expectations(&self) -> Vec<(String, &PartExpectation)> {
        let mut out = Vec::new();
        step_parts(".steps", &self.steps, &mut out);
        for (k, follow_up) in self.follow_ups.iter().enumerate() {
            if let Some(expect) = &follow_up.expect {
                step_parts(
                    &format!(".followUps[{k}].expect.steps"),
                    &expect.steps,
                    &mut out,
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_of_steps_and_follow_ups_are_found_with_their_paths() {
        let task: A2aTask = serde_json::from_value(json!({
            "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "hi"}]}},
            "steps": [
                {"status": {"state": "TASK_STATE_WORKING", "messageParts": [{"text": "w"}]}},
                {"artifact": {"parts": [{"text": "a"}, {"data": {"x": 1}, "schema": {"type": "object"}}]}}
            ],
            "followUps": [{"operation": "GetTask", "expect": {"steps": [{"message": {"parts": [{"text": "m"}]}}]}}]
        }))
        .expect("a task");
        let paths: Vec<String> = task
            .part_expectations()
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            paths,
            [
                ".steps[0].status.messageParts[0]",
                ".steps[1].artifact.parts[0]",
                ".steps[1].artifact.parts[1]",
                ".followUps[0].expect.steps[0].message.parts[0]"
            ]
        );
    }
}
