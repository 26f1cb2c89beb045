//! A readable unified diff of two texts (the stored and the newly
//! published content), for the notice of a 409.
//!
//! Common prefix and suffix are trimmed first; the middle is diffed by a
//! longest-common-subsequence table, and when that table would be too big
//! the whole middle is shown as removed and added (still a correct diff).

use std::fmt::Write;

/// Lines of context around each change.
const CONTEXT: usize = 3;
/// Largest LCS table (cells) computed; beyond it the middle is replaced whole.
const MAX_CELLS: usize = 4_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// `--- old_name` / `+++ new_name` and `@@` hunks, or an empty string when
/// the texts are equal.
pub fn unified_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = edit_script(&a, &b);
    if ops.iter().all(|(op, _)| *op == Op::Same) {
        return String::new();
    }
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    for hunk in hunks(&ops) {
        render_hunk(&mut out, &ops, hunk, &a, &b);
    }
    out
}

/// The edit script as (operation, index into old for Same/Removed or into
/// new for Added).
fn edit_script(a: &[&str], b: &[&str]) -> Vec<(Op, usize)> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max_suffix)
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops: Vec<(Op, usize)> = (0..prefix).map(|i| (Op::Same, i)).collect();
    if am.len().saturating_mul(bm.len()) > MAX_CELLS {
        ops.extend((0..am.len()).map(|i| (Op::Removed, prefix + i)));
        ops.extend((0..bm.len()).map(|j| (Op::Added, prefix + j)));
    } else {
        ops.extend(lcs_ops(am, bm, prefix));
    }
    ops.extend((a.len() - suffix..a.len()).map(|i| (Op::Same, i)));
    ops
}

fn lcs_ops(a: &[&str], b: &[&str], offset: usize) -> Vec<(Op, usize)> {
    let (n, m) = (a.len(), b.len());
    // table[i][j] = LCS length of a[i..] and b[j..]
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i * (m + 1) + j] = if a[i] == b[j] {
                table[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                table[(i + 1) * (m + 1) + j].max(table[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((Op::Same, offset + i));
            i += 1;
            j += 1;
        } else if i < n && (j == m || table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1]) {
            ops.push((Op::Removed, offset + i));
            i += 1;
        } else {
            ops.push((Op::Added, offset + j));
            j += 1;
        }
    }
    ops
}

/// Ranges of `ops` to print: each change with CONTEXT lines around it,
/// overlapping ranges joined.
fn hunks(ops: &[(Op, usize)]) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (k, (op, _)) in ops.iter().enumerate() {
        if *op == Op::Same {
            continue;
        }
        let start = k.saturating_sub(CONTEXT);
        let end = (k + CONTEXT + 1).min(ops.len());
        match ranges.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => ranges.push((start, end)),
        }
    }
    ranges
}

fn render_hunk(
    out: &mut String,
    ops: &[(Op, usize)],
    (start, end): (usize, usize),
    a: &[&str],
    b: &[&str],
) {
    // line numbers (1-based) where the hunk starts in old and new
    let before = &ops[..start];
    let old_start = before.iter().filter(|(op, _)| *op != Op::Added).count() + 1;
    let new_start = before.iter().filter(|(op, _)| *op != Op::Removed).count() + 1;
    let body = &ops[start..end];
    let old_len = body.iter().filter(|(op, _)| *op != Op::Added).count();
    let new_len = body.iter().filter(|(op, _)| *op != Op::Removed).count();
    let _ = writeln!(out, "@@ -{old_start},{old_len} +{new_start},{new_len} @@");
    for (op, index) in body {
        let _ = match op {
            Op::Same => writeln!(out, " {}", a[*index]),
            Op::Removed => writeln!(out, "-{}", a[*index]),
            Op::Added => writeln!(out, "+{}", b[*index]),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_an_empty_diff() {
        assert_eq!(unified_diff("a\nb\n", "a\nb\n", "old", "new"), "");
    }

    #[test]
    fn a_changed_line_is_shown_removed_and_added_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let new = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
        let diff = unified_diff(old, new, "old", "new");
        assert_eq!(
            diff,
            "--- old\n+++ new\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn far_apart_changes_make_two_hunks() {
        let old: String = (1..=30).map(|i| format!("{i}\n")).collect();
        let new: String = (1..=30)
            .map(|i| match i {
                2 => "two\n".to_owned(),
                28 => "twenty-eight\n".to_owned(),
                _ => format!("{i}\n"),
            })
            .collect();
        let diff = unified_diff(&old, &new, "old", "new");
        assert_eq!(diff.matches("@@ -").count(), 2, "{diff}");
    }

    #[test]
    fn inserted_lines_only_appear_as_added() {
        let diff = unified_diff("a\nc\n", "a\nb\nc\n", "old", "new");
        assert!(diff.contains("+b\n"), "{diff}");
        assert!(!diff.contains("-a") && !diff.contains("-c"), "{diff}");
    }
}
