//! Server-side layout of the network graph: applications grouped into
//! clusters (connected components; a large component split into stars
//! around its busiest applications), each cluster drawn as a circle around
//! its hub, clusters packed in rows. Past `BUDGET` applications, clusters
//! that do not fit are collapsed into one node with a count, linking to the
//! graph around their hub; what is collapsed is reported, never silent.

use std::collections::{BTreeMap, HashMap};

use super::super::home::integrations::Verdict;

/// The most application nodes drawn.
pub const BUDGET: usize = 100;
const WIDTH: f64 = 1100.0;
const CELL: f64 = 130.0;
const NODE_R: f64 = 9.0;
const SPACING: f64 = 34.0;
const LABEL: f64 = 40.0;
const MIN_RING: f64 = 95.0; // the smallest ring: a few labels around a hub do not overlap

/// An application in the view.
#[derive(Debug, Clone)]
pub struct App {
    pub name: String,
    pub url: String,
    /// Emphasised: the focus, or a match of `q`.
    pub marked: bool,
}

/// An integration in the view: indexes into the apps.
#[derive(Debug, Clone)]
pub struct Link {
    pub consumer: usize,
    pub provider: usize,
    pub verdict: Verdict,
    pub title: String,
    pub url: String,
}

/// A node as drawn.
#[derive(Debug, Clone)]
pub struct DrawnNode {
    pub x: f64,
    pub y: f64,
    pub r: f64,
    pub label: String,
    pub title: String,
    pub url: String,
    /// `app`, `app marked`, `cluster` or `cluster lone`.
    pub class: &'static str,
}

/// An edge as drawn (consumer to provider), possibly standing for several.
#[derive(Debug, Clone)]
pub struct DrawnEdge {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    pub verdict: &'static str,
    /// The dash pattern of the verdict.
    pub dash: &'static str,
    pub title: String,
    pub url: String,
}

/// The dash pattern of a verdict's edges (colour is never the only cue).
pub fn dash(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Fail => "8 4",
        Verdict::Pending => "3 3",
        Verdict::Unverified => "1 5",
        Verdict::Pass => "none",
    }
}

/// A cluster drawn as one node.
#[derive(Debug, Clone)]
pub struct Collapsed {
    pub hub: String,
    pub size: usize,
    pub url: String,
}

/// The drawing.
#[derive(Debug, Default)]
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    pub nodes: Vec<DrawnNode>,
    pub edges: Vec<DrawnEdge>,
    pub collapsed: Vec<Collapsed>,
    /// Applications of a cluster too large to draw whole (in the table).
    pub not_drawn: usize,
}

/// Applications without integrations drawn as one node (past the budget).
#[derive(Debug, Clone, Default)]
pub struct Lone {
    pub count: usize,
    /// Where they are listed.
    pub url: String,
}

/// Lays out `apps` and `links`, then `lone` as one node if it counts any.
pub fn draw(
    apps: &[App],
    links: &[Link],
    lone: &Lone,
    focus_url: impl Fn(&str) -> String,
) -> Drawing {
    let clusters = clusters(apps, links);
    let plan = plan(&clusters, apps.len());
    let mut drawing = Drawing::default();
    let mut slot: Vec<Option<usize>> = vec![None; apps.len()];
    let mut cells = Packer::default();
    for (cluster, shown) in clusters.iter().zip(plan) {
        if shown == 0 {
            let hub = &apps[cluster[0]];
            let (x, y) = cells.place(CELL, CELL);
            let size = cluster.len();
            drawing.collapsed.push(Collapsed {
                hub: hub.name.clone(),
                size,
                url: focus_url(&hub.name),
            });
            for &a in cluster {
                slot[a] = Some(drawing.nodes.len());
            }
            drawing.nodes.push(DrawnNode {
                x: x + CELL / 2.0,
                y: y + CELL / 2.0 - 10.0,
                r: NODE_R * 2.2,
                label: format!("{} +{}", short(&hub.name), size - 1),
                title: format!("{size} applications around {} (collapsed)", hub.name),
                url: focus_url(&hub.name),
                class: "cluster",
            });
            continue;
        }
        drawing.not_drawn += cluster.len() - shown;
        circle(&mut drawing, &mut cells, &mut slot, apps, &cluster[..shown]);
    }
    if lone.count > 0 {
        lone_node(&mut drawing, &mut cells, lone);
    }
    drawing.edges = edges(&drawing.nodes, &slot, links);
    drawing.width = cells.width.max(CELL);
    drawing.height = (cells.y + cells.row).max(CELL);
    drawing
}

/// The node standing for every application without integrations.
fn lone_node(drawing: &mut Drawing, cells: &mut Packer, lone: &Lone) {
    let (x, y) = cells.place(CELL, CELL);
    drawing.nodes.push(DrawnNode {
        x: x + CELL / 2.0,
        y: y + CELL / 2.0 - 10.0,
        r: NODE_R * 2.2,
        label: format!("{} without integrations", lone.count),
        title: format!(
            "{} applications without integrations (collapsed)",
            lone.count
        ),
        url: lone.url.clone(),
        class: "cluster lone",
    });
}

/// Draws a cluster's first members: its hub in the middle, the others around.
fn circle(
    drawing: &mut Drawing,
    cells: &mut Packer,
    slot: &mut [Option<usize>],
    apps: &[App],
    members: &[usize],
) {
    let n = members.len();
    let radius = if n <= 1 {
        0.0
    } else {
        (SPACING * (n - 1) as f64 / std::f64::consts::TAU).max(MIN_RING)
    };
    let side = 2.0 * radius + CELL;
    let (x0, y0) = cells.place(side, side);
    let (cx, cy) = (x0 + side / 2.0, y0 + side / 2.0 - 10.0);
    for (i, &a) in members.iter().enumerate() {
        let angle = std::f64::consts::TAU * (i as f64 - 1.0) / (n - 1).max(1) as f64;
        let (x, y) = if i == 0 {
            (cx, cy)
        } else {
            (cx + radius * angle.cos(), cy + radius * angle.sin())
        };
        slot[a] = Some(drawing.nodes.len());
        let app = &apps[a];
        drawing.nodes.push(DrawnNode {
            x,
            y,
            r: NODE_R,
            label: short(&app.name),
            title: app.name.clone(),
            url: app.url.clone(),
            class: if app.marked { "app marked" } else { "app" },
        });
    }
}

/// Names longer than 18 characters are cut on the drawing (whole in titles).
fn short(name: &str) -> String {
    if name.chars().count() <= 18 {
        return name.to_owned();
    }
    let cut: String = name.chars().take(17).collect();
    format!("{cut}…")
}

/// Rows of cells, left to right, wrapping at `WIDTH`.
#[derive(Debug, Default)]
struct Packer {
    x: f64,
    y: f64,
    row: f64,
    width: f64,
}

impl Packer {
    fn place(&mut self, w: f64, h: f64) -> (f64, f64) {
        if self.x > 0.0 && self.x + w > WIDTH {
            self.y += self.row;
            self.x = 0.0;
            self.row = 0.0;
        }
        let at = (self.x, self.y);
        self.x += w;
        self.row = self.row.max(h + LABEL / 2.0);
        self.width = self.width.max(self.x);
        at
    }
}

/// Clusters, each hub first then by name; largest clusters first.
fn clusters(apps: &[App], links: &[Link]) -> Vec<Vec<usize>> {
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
fn plan(clusters: &[Vec<usize>], total: usize) -> Vec<usize> {
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

/// One drawn edge per pair of drawn nodes, standing for every integration
/// between what they show, with the worst verdict among them.
fn edges(nodes: &[DrawnNode], slot: &[Option<usize>], links: &[Link]) -> Vec<DrawnEdge> {
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
        .map(|((a, b), group)| ((a, b), edge(&nodes[a], &nodes[b], &group)))
        .collect();
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, e)| e).collect()
}

fn edge(from: &DrawnNode, to: &DrawnNode, group: &[&Link]) -> DrawnEdge {
    let worst = group
        .iter()
        .map(|l| l.verdict)
        .min()
        .unwrap_or(Verdict::Unverified);
    let (title, url) = match group {
        [one] => (one.title.clone(), one.url.clone()),
        many => {
            let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
            for l in many {
                *counts.entry(l.verdict).or_default() += 1;
            }
            let parts: Vec<String> = counts
                .iter()
                .map(|(v, n)| format!("{n} {}", v.label()))
                .collect();
            (
                format!(
                    "{} integrations from {} to {}: {}",
                    many.len(),
                    from.title,
                    to.title,
                    parts.join(", ")
                ),
                if from.class == "cluster" {
                    from.url.clone()
                } else {
                    to.url.clone()
                },
            )
        }
    };
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    DrawnEdge {
        x1: from.x + ux * from.r,
        y1: from.y + uy * from.r,
        x2: to.x - ux * (to.r + 4.0),
        y2: to.y - uy * (to.r + 4.0),
        verdict: worst.word(),
        dash: dash(worst),
        title,
        url,
    }
}
