//! Which applications are drawn together: clusters (a busy application
//! and its neighbours), and how many of each fit the budget.

use std::collections::BTreeMap;

use super::{App, BUDGET, Link};

/// Clusters, each hub first then by name; largest clusters first.
pub(super) fn clusters(apps: &[App], links: &[Link]) -> Vec<Vec<usize>> {
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); apps.len()];
    for l in links.iter().filter(|l| l.consumer != l.provider) {
        neighbours[l.consumer].push(l.provider);
        neighbours[l.provider].push(l.consumer);
    }
    for n in &mut neighbours {
        n.sort_unstable();
        n.dedup();
    }
    let mut order: Vec<usize> = (0..apps.len()).collect();
    // busiest first, then by name: hubs claim their neighbours
    order.sort_by(|a, b| {
        neighbours[*b]
            .len()
            .cmp(&neighbours[*a].len())
            .then_with(|| apps[*a].name.cmp(&apps[*b].name))
    });
    let mut owner: Vec<Option<usize>> = vec![None; apps.len()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for &hub in &order {
        if owner[hub].is_some() {
            continue;
        }
        let mut members = vec![hub];
        owner[hub] = Some(out.len());
        for &n in &neighbours[hub] {
            if owner[n].is_none() {
                owner[n] = Some(out.len());
                members.push(n);
            }
        }
        members[1..].sort_by(|a, b| apps[*a].name.cmp(&apps[*b].name));
        out.push(members);
    }
    merge_singletons(out, &neighbours, &owner)
}

/// A lone application whose neighbours all went to other hubs joins the
/// cluster of its first neighbour (it is drawn beside what it talks to).
fn merge_singletons(
    clusters: Vec<Vec<usize>>,
    neighbours: &[Vec<usize>],
    owner: &[Option<usize>],
) -> Vec<Vec<usize>> {
    let mut target: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, c) in clusters.iter().enumerate() {
        if let [only] = c.as_slice()
            && let Some(&n) = neighbours[*only].first()
            && let Some(o) = owner[n]
            && clusters[o].len() > 1
        {
            target.insert(i, o);
        }
    }
    let mut merged = clusters.clone();
    for (&from, &to) in &target {
        let moved = clusters[from][0];
        merged[to].push(moved);
        merged[from].clear();
    }
    merged.retain(|c| !c.is_empty());
    merged
}

/// How many members of each cluster to draw (0: collapsed into one node).
pub(super) fn plan(clusters: &[Vec<usize>], total: usize) -> Vec<usize> {
    if total <= BUDGET {
        return clusters.iter().map(Vec::len).collect();
    }
    let mut spare = BUDGET.saturating_sub(clusters.len());
    clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if c.len() == 1 {
                1
            } else if c.len() - 1 <= spare {
                spare -= c.len() - 1;
                c.len()
            } else if i == 0 {
                // the largest cluster does not fit (a focus on a big hub):
                // draw what fits, the table lists the rest
                let shown = spare + 1;
                spare = 0;
                shown
            } else {
                0
            }
        })
        .collect()
}
