//! Edges between drawn nodes: one per pair of nodes, with the worst verdict
//! of the integrations it stands for, running from border to border so
//! that the arrowhead sits outside the provider's box (names are inside
//! the boxes, so no arrowhead covers one).

use std::collections::{BTreeMap, HashMap};

use super::super::super::home::integrations::Verdict;
use super::{DrawnEdge, DrawnNode, Link, dash};

/// How far before the border the line stops (the arrowhead's tip).
const ARROW_GAP: f64 = 3.0;

/// One drawn edge per pair of drawn nodes, standing for every integration
/// between what they show, with the worst verdict among them.
pub(super) fn edges(nodes: &[DrawnNode], slot: &[Option<usize>], links: &[Link]) -> Vec<DrawnEdge> {
    let mut grouped: HashMap<(usize, usize), Vec<&Link>> = HashMap::new();
    for l in links {
        if let (Some(a), Some(b)) = (slot[l.consumer], slot[l.provider])
            && a != b
        {
            grouped.entry((a, b)).or_default().push(l);
        }
    }
    let mut out: Vec<((usize, usize), DrawnEdge)> = grouped
        .into_iter()
        .map(|((a, b), group)| ((a, b), edge(nodes, a, b, &group)))
        .collect();
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, e)| e).collect()
}

fn edge(nodes: &[DrawnNode], a: usize, b: usize, group: &[&Link]) -> DrawnEdge {
    let (from, to) = (&nodes[a], &nodes[b]);
    let worst = group
        .iter()
        .map(|l| l.verdict)
        .min()
        .unwrap_or(Verdict::Unverified);
    let (title, url) = match group {
        [one] => (one.title.clone(), one.url.clone()),
        many => (
            format!(
                "{} integrations from {} to {}: {}",
                many.len(),
                from.name,
                to.name,
                counts(many)
            ),
            if from.class.starts_with("cluster") {
                from.url.clone()
            } else {
                to.url.clone()
            },
        ),
    };
    // a line between a fan's hub and a member ends at the member's port
    let port = |member: &DrawnNode, hub: usize| member.port.filter(|_| member.hub == Some(hub));
    let ((x1, y1), (bx, by)) = ends(from, to, port(to, a), port(from, b));
    let (dx, dy) = (bx - x1, by - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let gap = ARROW_GAP.min(len / 2.0);
    DrawnEdge {
        x1,
        y1,
        x2: bx - dx / len * gap,
        y2: by - dy / len * gap,
        verdict: worst.word(),
        dash: dash(worst),
        title,
        url,
    }
}

/// "2 fail, 1 pass".
fn counts(links: &[&Link]) -> String {
    let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
    for l in links {
        *counts.entry(l.verdict).or_default() += 1;
    }
    counts
        .iter()
        .map(|(v, n)| format!("{n} {}", v.label()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where the line between `a` and `b` meets each box: a fixed point (a
/// hub's port for the member), else a column member offers the middle of
/// the side facing the other node; any other node the point where the line
/// towards the other's end crosses its border.
pub(super) fn ends(
    a: &DrawnNode,
    b: &DrawnNode,
    fixed_a: Option<(f64, f64)>,
    fixed_b: Option<(f64, f64)>,
) -> ((f64, f64), (f64, f64)) {
    let sa = fixed_a.or_else(|| side_point(a, b));
    let sb = fixed_b.or_else(|| side_point(b, a));
    let pa = sa.unwrap_or_else(|| clip(a, sb.unwrap_or((b.x, b.y))));
    let pb = sb.unwrap_or_else(|| clip(b, sa.unwrap_or((a.x, a.y))));
    (pa, pb)
}

/// The middle of `n`'s side facing `other`, for a column member whose
/// neighbour is beside it rather than above or below.
fn side_point(n: &DrawnNode, other: &DrawnNode) -> Option<(f64, f64)> {
    let dx = other.x - n.x;
    (n.side && dx.abs() > n.w / 2.0).then(|| (n.x + n.w / 2.0 * dx.signum(), n.y))
}

/// Where the segment from `n`'s centre to `target` leaves `n`'s box.
pub(super) fn clip(n: &DrawnNode, target: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = (target.0 - n.x, target.1 - n.y);
    let along = |half: f64, d: f64| {
        if d == 0.0 {
            f64::INFINITY
        } else {
            half / d.abs()
        }
    };
    let t = along(n.w / 2.0, dx).min(along(n.h / 2.0, dy));
    if !t.is_finite() || t >= 1.0 {
        return target;
    }
    (n.x + dx * t, n.y + dy * t)
}
