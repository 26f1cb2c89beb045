//! Reading the suite's data tables and the values in their cells.
//!
//! Tables have a header row naming the columns (`| body | matching rules |`);
//! cells hold plain text, `JSON: …`, `XML: …`, `file: NAME`, `EMPTY`, header
//! lists such as `'X-TEST: 1', 'X-B: 2'` and query strings such as `a=1&b=2`.

use gherkin::Table;
use indexmap::IndexMap;
use serde_json::Value;

use accord_dsl::model::{Headers, Query};

/// One data row of a table, by column name.
pub type Record = IndexMap<String, String>;

/// The data rows of a table whose first row names the columns.
pub fn records(table: Option<&Table>) -> Result<Vec<Record>, String> {
    let table = table.ok_or("the step has no data table")?;
    let Some((head, rows)) = table.rows.split_first() else {
        return Err("the data table is empty".into());
    };
    Ok(rows
        .iter()
        .map(|row| head.iter().cloned().zip(row.iter().cloned()).collect())
        .collect())
}

/// The single data row of a table.
pub fn single_record(table: Option<&Table>) -> Result<Record, String> {
    records(table)?
        .into_iter()
        .next()
        .ok_or_else(|| "the data table has no data row".to_string())
}

/// The first cell of the first row (tables that hold one value, no header).
pub fn first_cell(table: Option<&Table>) -> Result<String, String> {
    table
        .and_then(|t| t.rows.first())
        .and_then(|r| r.first())
        .cloned()
        .ok_or_else(|| "the step has no table value".to_string())
}

/// A JSON cell: `JSON: {…}` or bare JSON.
pub fn json_cell(cell: &str) -> Result<Value, String> {
    let text = cell.strip_prefix("JSON:").unwrap_or(cell).trim();
    serde_json::from_str(text).map_err(|e| format!("cell {cell:?} is not JSON: {e}"))
}

/// A value written in a step as `Some Text` or `JSON: {…}` (with `\"` escapes).
pub fn text_or_json(value: &str) -> Result<Value, String> {
    if value.starts_with("JSON:") {
        json_cell(&value.replace("\\\"", "\""))
    } else {
        Ok(Value::String(value.to_string()))
    }
}

/// Query parameters from `a=1&b=2&a=3` (repeated names keep every value).
pub fn query(cell: &str) -> Option<Query> {
    let cell = cell.trim();
    if cell.is_empty() {
        return None;
    }
    let mut q = Query::new();
    for pair in cell.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        q.entry(name.to_string())
            .or_default()
            .push(value.to_string());
    }
    Some(q)
}

/// Headers from `'X-A: 1', 'X-B: 2'` (repeated names keep every value).
pub fn headers(cell: &str) -> Option<Headers> {
    let cell = cell.trim();
    if cell.is_empty() {
        return None;
    }
    let mut h = Headers::new();
    for item in split_quoted(cell) {
        let (name, value) = item.split_once(':').unwrap_or((item.as_str(), ""));
        h.entry(name.trim().to_string())
            .or_default()
            .push(value.trim().to_string());
    }
    Some(h)
}

/// Splits `'a', 'b'` into its quoted items; unquoted text splits on commas.
fn split_quoted(cell: &str) -> Vec<String> {
    if !cell.starts_with('\'') {
        return cell.split(',').map(|s| s.trim().to_string()).collect();
    }
    cell.split('\'')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// Adds one header value, keeping the ones already there.
pub fn add_header(headers: &mut Option<Headers>, name: &str, value: &str) {
    headers
        .get_or_insert_with(Headers::new)
        .entry(name.to_string())
        .or_default()
        .push(value.to_string());
}

/// `first`, `second`, `third` → 0, 1, 2.
pub fn ordinal(word: &str) -> Result<usize, String> {
    match word {
        "first" => Ok(0),
        "second" => Ok(1),
        "third" => Ok(2),
        other => Err(format!("unknown ordinal {other:?}")),
    }
}
