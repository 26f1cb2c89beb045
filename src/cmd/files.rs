//! Reading and writing the files commands work on: one size limit, one
//! error wording, whole-or-nothing writes.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

/// Largest file a contract command reads (contracts are documents, not data dumps).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a UTF-8 text file, refusing files above [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.len() > MAX_FILE_BYTES {
        bail!(
            "{}: {} bytes is larger than the {} byte limit",
            path.display(),
            meta.len(),
            MAX_FILE_BYTES
        );
    }
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Writes `text` to `path`, or to standard output for `None` or `-`. A file
/// is written whole or not at all (temporary file, then rename).
pub fn write_output(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path {
        None => print_stdout(text),
        Some(p) if p == Path::new("-") => print_stdout(text),
        Some(p) => {
            let tmp = p.with_extension("accord-tmp");
            std::fs::write(&tmp, format!("{text}\n"))
                .with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, p).with_context(|| format!("cannot write {}", p.display()))
        }
    }
}

fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").context("cannot write to standard output")
}

/// Reads a JSON file (a leading byte-order mark is ignored); bad JSON names
/// the file, line and column.
pub fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let text = read_text(path)?;
    let origin = path.display().to_string();
    Ok(accord_dsl::pact::parse_json(
        text.trim_start_matches('\u{feff}'),
        &origin,
    )?)
}
