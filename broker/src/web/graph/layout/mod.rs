//! Server-side layout of the network graph: applications grouped into
//! clusters (connected components; a large component split into stars
//! around its busiest applications), each cluster drawn as a fan below its
//! hub, clusters packed in rows as wide as the drawing (`place`). A node is
//! a box holding the whole name (past `Shape`'s limit a name is shortened,
//! whole in its title), coloured and marked by the worst verdict of its
//! integrations; edges run from border to border (`edges`). Past `BUDGET`
//! applications, clusters that do not fit are collapsed into one node with
//! a count, linking to the graph around their hub; what is collapsed is
//! reported, never silent. The page draws the network twice: `WIDE` for a
//! screen, `PHONE` for a phone's width (the stylesheet shows one).

mod clusters;
mod edges;
mod place;

use crate::web::home::integrations::Verdict;

use self::place::Cell;

/// The most application nodes drawn.
pub const BUDGET: usize = 100;
/// A node's height.
const NODE_H: f64 = 24.0;
/// The width a character of a name takes (11 px text), with some room.
const CHAR: f64 = 6.6;
/// Left and right of a name inside its box, and the verdict's mark.
const PAD: f64 = 16.0;
const MARK: f64 = 12.0;
/// Room on a hub's border for each line from a member.
const PORT: f64 = 10.0;

/// What the drawing is made for.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Its width (the SVG's viewBox; the page scales it to its box).
    pub width: f64,
    /// The longest name drawn whole in a fan's columns, and anywhere else.
    pub member_chars: usize,
    pub hub_chars: usize,
    /// The widest a fan is spread.
    pub max_cell: f64,
}

/// For a screen: 1,100 units, about the page's width at 1280 px.
pub const WIDE: Shape = Shape {
    width: 1100.0,
    member_chars: 36,
    hub_chars: 40,
    max_cell: 760.0,
};

/// For a 390 px phone: one fan a row, two columns of 21-character names.
pub const PHONE: Shape = Shape {
    width: 380.0,
    member_chars: 21,
    hub_chars: 50,
    max_cell: 380.0,
};

/// An application in the view.
#[derive(Debug, Clone)]
pub struct App {
    pub name: String,
    pub url: String,
    /// Emphasised: the focus, or a match of `q`.
    pub marked: bool,
    /// The worst verdict of its integrations in the view (none: it has none).
    pub verdict: Option<Verdict>,
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

/// A node as drawn: a box centred on (`x`, `y`).
#[derive(Debug, Clone)]
pub struct DrawnNode {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// The verdict's mark (✗ ! ? ✓), empty when it has no integration.
    pub mark: &'static str,
    pub label: String,
    /// What it stands for, in an edge's title.
    pub name: String,
    pub title: String,
    pub url: String,
    /// `app` or `cluster` (`cluster lone`), `marked`, and the verdict's
    /// word (`fail`, `pending`, `unverified`, `pass`, or `none`).
    pub class: String,
    /// In a fan's column: lines from beside it meet its side.
    side: bool,
    /// In a fan: its hub (an index into the nodes) and where on the hub's
    /// border its line to the hub ends (lines spread along the border, so
    /// their arrowheads do not pile up).
    hub: Option<usize>,
    port: Option<(f64, f64)>,
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

/// The mark a node shows for its worst verdict (colour is never the only cue).
pub fn mark(verdict: Option<Verdict>) -> &'static str {
    match verdict {
        Some(Verdict::Fail) => "✗",
        Some(Verdict::Pending) => "!",
        Some(Verdict::Unverified) => "?",
        Some(Verdict::Pass) => "✓",
        None => "",
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

/// Lays out `apps` and `links` for `shape`, then `lone` as one node if it
/// counts any.
pub fn draw(
    apps: &[App],
    links: &[Link],
    lone: &Lone,
    focus_url: impl Fn(&str) -> String,
    shape: Shape,
) -> Drawing {
    let clusters = clusters::clusters(apps, links);
    let plan = clusters::plan(&clusters, apps.len());
    let mut drawing = Drawing::default();
    let mut cells = Vec::new();
    for (cluster, shown) in clusters.iter().zip(plan) {
        if shown == 0 {
            let hub = &apps[cluster[0]].name;
            drawing.collapsed.push(Collapsed {
                hub: hub.clone(),
                size: cluster.len(),
                url: focus_url(hub),
            });
            cells.push(collapsed(apps, cluster, focus_url(hub), shape));
            continue;
        }
        drawing.not_drawn += cluster.len() - shown;
        cells.push(fan(apps, &cluster[..shown], shape));
    }
    if lone.count > 0 {
        cells.push(lone_cell(lone));
    }
    let (nodes, slot, width, height) = place::pack(cells, apps.len(), shape);
    drawing.edges = edges::edges(&nodes, &slot, links);
    drawing.nodes = nodes;
    (drawing.width, drawing.height) = (width, height);
    drawing
}

/// A cluster's first members: its hub, then the others.
fn fan(apps: &[App], members: &[usize], shape: Shape) -> Cell {
    let nodes = members
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let app = &apps[a];
            let chars = if i == 0 {
                shape.hub_chars
            } else {
                shape.member_chars
            };
            let title = match app.verdict {
                Some(v) => format!(
                    "{}: {}, the worst verdict of its integrations",
                    app.name,
                    v.label()
                ),
                None => format!("{}: no integrations", app.name),
            };
            let marked = if app.marked { " marked" } else { "" };
            let class = format!("app{marked} {}", word(app.verdict));
            node(
                short(&app.name, chars),
                &app.name,
                title,
                &app.url,
                class,
                app.verdict,
            )
        })
        .collect();
    let mut nodes: Vec<DrawnNode> = nodes;
    if let Some(hub) = nodes.first_mut()
        && members.len() > 2
    {
        // room on its border for a line per member
        hub.w = hub
            .w
            .max((members.len() as f64 * PORT + 2.0 * PAD).min(shape.width));
    }
    let apps = members.iter().map(|&a| vec![a]).collect();
    Cell { nodes, apps }
}

/// A cluster drawn as one node, in the colour of its worst verdict.
fn collapsed(apps: &[App], cluster: &[usize], url: String, shape: Shape) -> Cell {
    let hub = &apps[cluster[0]].name;
    let size = cluster.len();
    let worst = cluster.iter().filter_map(|&a| apps[a].verdict).min();
    let label = format!("{} +{}", short(hub, shape.member_chars), size - 1);
    let mut title = format!("{size} applications around {hub} (collapsed)");
    if let Some(v) = worst {
        title.push_str(&format!(
            ": {}, the worst verdict of their integrations",
            v.label()
        ));
    }
    let class = format!("cluster {}", word(worst));
    Cell {
        nodes: vec![node(label, hub, title, &url, class, worst)],
        apps: vec![cluster.to_vec()],
    }
}

/// The node standing for every application without integrations.
fn lone_cell(lone: &Lone) -> Cell {
    let title = format!(
        "{} applications without integrations (collapsed)",
        lone.count
    );
    let label = format!("{} without integrations", lone.count);
    let class = "cluster lone none".to_owned();
    Cell {
        nodes: vec![node(label.clone(), &label, title, &lone.url, class, None)],
        apps: vec![Vec::new()],
    }
}

/// A box wide enough for its label and mark.
fn node(
    label: String,
    name: &str,
    title: String,
    url: &str,
    class: String,
    verdict: Option<Verdict>,
) -> DrawnNode {
    let mark = mark(verdict);
    let marked = if mark.is_empty() { 0.0 } else { MARK };
    DrawnNode {
        x: 0.0,
        y: 0.0,
        w: (label.chars().count() as f64 * CHAR + PAD + marked).max(40.0),
        h: NODE_H,
        mark,
        label,
        name: name.to_owned(),
        title,
        url: url.to_owned(),
        class,
        side: false,
        hub: None,
        port: None,
    }
}

/// The class word of a (worst) verdict; `none` without integrations.
fn word(verdict: Option<Verdict>) -> &'static str {
    verdict.map_or("none", Verdict::word)
}

/// A name longer than `chars` is shortened in its middle on the drawing
/// (whole in its title): names that share a prefix (`billing-api-v1`,
/// `billing-api-v2`) stay apart.
fn short(name: &str, chars: usize) -> String {
    let all: Vec<char> = name.chars().collect();
    if all.len() <= chars {
        return name.to_owned();
    }
    let head = chars.saturating_sub(1).div_ceil(2);
    let tail = chars.saturating_sub(1) - head;
    let start: String = all[..head].iter().collect();
    let end: String = all[all.len() - tail..].iter().collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod tests;
