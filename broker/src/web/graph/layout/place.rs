//! Where nodes go. A cluster is a fan: its hub on top, the others in two
//! columns below (each column as wide as its widest name, so a line from
//! the hub to a member passes beside the members above it); a single node
//! is a cell of its own. Cells are packed in rows as wide as the drawing,
//! each row centred and its fans spread into the spare width (up to
//! `Shape::max_cell`), so a small network does not sit in a corner.

use super::{DrawnNode, NODE_H, Shape};

/// From the hub's box to the first row of members.
const FIRST: f64 = 44.0;
/// From one row of members to the next.
const ROW: f64 = 34.0;
/// Between the two columns of a fan, at least.
const COLUMNS: f64 = 24.0;
/// Between cells of a row, and between rows.
const CELL_GAP: f64 = 32.0;
const ROW_GAP: f64 = 40.0;
/// Around the drawing (thick borders and arrowheads stay inside).
const MARGIN: f64 = 6.0;

/// A cell to place: its nodes (the hub first) and, per node, the
/// applications it stands for.
#[derive(Debug, Default)]
pub(super) struct Cell {
    pub nodes: Vec<DrawnNode>,
    pub apps: Vec<Vec<usize>>,
}

impl Cell {
    fn members(&self) -> &[DrawnNode] {
        self.nodes.get(1..).unwrap_or_default()
    }

    /// The widest member (every member of a column is drawn this wide).
    fn column(&self) -> f64 {
        self.members().iter().map(|n| n.w).fold(0.0, f64::max)
    }

    fn width(&self) -> f64 {
        let hub = self.nodes.first().map_or(0.0, |n| n.w);
        match self.members().len() {
            0 => hub,
            1 => hub.max(self.column()),
            _ => hub.max(2.0 * self.column() + COLUMNS),
        }
    }

    fn height(&self) -> f64 {
        let rows = self.members().len().div_ceil(2);
        if rows == 0 {
            NODE_H
        } else {
            NODE_H + FIRST + (rows - 1) as f64 * ROW + NODE_H
        }
    }

    /// Puts the nodes in a box at (`x`, `y`) `w` wide; `first` is the
    /// index the hub will have among all nodes.
    fn place(&mut self, x: f64, y: f64, w: f64, first: usize) {
        let column = self.column();
        let two = self.nodes.len() > 2;
        let rows = self.members().len().div_ceil(2);
        let Some((hub, members)) = self.nodes.split_first_mut() else {
            return;
        };
        (hub.x, hub.y) = (x + w / 2.0, y + NODE_H / 2.0);
        // ports on the hub's bottom, between the columns' inner sides
        let reach = (hub.w / 2.0 - 8.0).min(w / 2.0 - column - 4.0).max(0.0);
        for (i, n) in members.iter_mut().enumerate() {
            let (col, row) = (i % 2, i / 2);
            n.hub = Some(first);
            n.y = y + NODE_H + FIRST + row as f64 * ROW + NODE_H / 2.0;
            n.x = x + w / 2.0;
            if two {
                n.w = column;
                n.side = true;
                n.x = if col == 0 {
                    x + column / 2.0
                } else {
                    x + w - column / 2.0
                };
                // the top row outermost: lines of a column never cross
                let off = reach * (rows - row) as f64 / (rows + 1) as f64;
                let side = if col == 0 { -1.0 } else { 1.0 };
                n.port = Some((hub.x + side * off, hub.y + NODE_H / 2.0));
            }
        }
    }
}

/// Places the cells in rows; returns the nodes, the node of each
/// application (`slot`, for `apps` applications), the width and height.
pub(super) fn pack(
    cells: Vec<Cell>,
    apps: usize,
    shape: Shape,
) -> (Vec<DrawnNode>, Vec<Option<usize>>, f64, f64) {
    let mut nodes = Vec::new();
    let mut slot = vec![None; apps];
    let mut y = MARGIN;
    let mut width = shape.width;
    for mut row in rows(cells, shape.width) {
        let widths = spread(&row, shape);
        let used: f64 = widths.iter().sum::<f64>() + CELL_GAP * (row.len() - 1) as f64;
        width = width.max(used);
        let mut x = MARGIN + ((shape.width - used) / 2.0).max(0.0);
        let height = row.iter().map(Cell::height).fold(0.0, f64::max);
        for (cell, w) in row.iter_mut().zip(widths) {
            cell.place(x, y, w, nodes.len());
            x += w + CELL_GAP;
            for (node, apps) in cell.nodes.drain(..).zip(&cell.apps) {
                for &a in apps {
                    slot[a] = Some(nodes.len());
                }
                nodes.push(node);
            }
        }
        y += height + ROW_GAP;
    }
    (nodes, slot, width + 2.0 * MARGIN, y - ROW_GAP + MARGIN)
}

/// The cells in rows no wider than `width` (a cell wider alone in its row).
fn rows(cells: Vec<Cell>, width: f64) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    let mut used = 0.0;
    for cell in cells {
        let w = cell.width();
        match out.last_mut() {
            Some(row) if used + CELL_GAP + w <= width => {
                used += CELL_GAP + w;
                row.push(cell);
            }
            _ => {
                used = w;
                out.push(vec![cell]);
            }
        }
    }
    out
}

/// The width of each cell of a row: its own, fans spread into the spare
/// width shared out evenly, none past `max_cell`.
fn spread(row: &[Cell], shape: Shape) -> Vec<f64> {
    let natural: Vec<f64> = row.iter().map(Cell::width).collect();
    let used: f64 = natural.iter().sum::<f64>() + CELL_GAP * (row.len() - 1) as f64;
    let extra = ((shape.width - used) / row.len() as f64).max(0.0);
    row.iter()
        .zip(natural)
        .map(|(cell, w)| {
            if cell.members().len() > 1 {
                (w + extra).min(shape.max_cell.max(w))
            } else {
                w
            }
        })
        .collect()
}
