//! "Did you mean …?": the closest known name to a mistyped key, shared by
//! `lint` (unknown attributes of a Pact JSON contract) and the spec
//! compiler (unknown keys of a YAML spec).

/// The known name closest to `key` (at most two edits away, case ignored
/// for the threshold), or `None` when nothing is that close.
pub(crate) fn closest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let lower = key.to_lowercase();
    known
        .iter()
        .filter(|k| distance(&lower, &k.to_lowercase()) <= 2)
        .min_by_key(|k| distance(key, k))
        .copied()
}

/// Levenshtein distance, on characters.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("statsu", "status"), 2);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn the_closest_name_within_two_edits_is_suggested() {
        let known = ["side_effects", "skill", "send"];
        assert_eq!(closest("side_efects", &known), Some("side_effects"));
        assert_eq!(closest("Sned", &known), Some("send"));
        assert_eq!(closest("timeout", &known), None);
    }
}
