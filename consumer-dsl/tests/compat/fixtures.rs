//! Fixture files of the suite (read in place, never copied) and bodies
//! built from table cells.
//!
//! A body cell is `JSON: …`, `XML: …`, `file: NAME`, `EMPTY` or plain text.
//! `file: *-body.xml` fixtures are wrappers holding a `<contentType>` and the
//! `<contents>` (CDATA, `eol="CRLF"` for CRLF line ends); other files are
//! taken as they are, typed by extension unless the table names a type.

use std::path::{Path, PathBuf};

use serde_json::Value;

use accord_dsl::model::{Body, BodyContent};

/// The suite's `fixtures/` folder.
#[derive(Debug, Clone)]
pub struct Fixtures {
    dir: PathBuf,
}

impl Fixtures {
    pub fn new(suite_root: &Path) -> Self {
        Fixtures {
            dir: suite_root.join("fixtures"),
        }
    }

    /// The bytes of a fixture file.
    pub fn bytes(&self, name: &str) -> Result<Vec<u8>, String> {
        let path = self.dir.join(name.trim());
        std::fs::read(&path).map_err(|e| format!("cannot read fixture {}: {e}", path.display()))
    }

    /// A JSON value from `JSON: …` or a fixture file name (`file:` optional).
    pub fn json(&self, cell: &str) -> Result<Value, String> {
        let cell = cell.trim();
        if cell.starts_with("JSON:") || cell.starts_with('{') {
            return crate::cells::json_cell(cell);
        }
        let name = cell.strip_prefix("file:").unwrap_or(cell).trim();
        let bytes = self.bytes(name)?;
        serde_json::from_slice(&bytes).map_err(|e| format!("fixture {name} is not JSON: {e}"))
    }

    /// A body from a cell; `content_type` (a table column) overrides the
    /// type the cell implies. An empty cell is no body.
    pub fn body(&self, cell: &str, content_type: Option<&str>) -> Result<Body, String> {
        let cell = cell.trim();
        let given = content_type.map(str::trim).filter(|c| !c.is_empty());
        if cell.is_empty() {
            return Ok(Body::Missing);
        }
        if let Some(json) = cell.strip_prefix("JSON:") {
            let ct = given.unwrap_or("application/json");
            return Ok(body_of(json.trim().as_bytes().to_vec(), ct));
        }
        if let Some(xml) = cell.strip_prefix("XML:") {
            let ct = given.unwrap_or("application/xml");
            return Ok(body_of(xml.trim().as_bytes().to_vec(), ct));
        }
        if let Some(name) = cell.strip_prefix("file:") {
            return self.file_body(name.trim(), given);
        }
        let text = if cell == "EMPTY" { "" } else { cell };
        Ok(body_of(
            text.as_bytes().to_vec(),
            given.unwrap_or("text/plain"),
        ))
    }

    fn file_body(&self, name: &str, given: Option<&str>) -> Result<Body, String> {
        let bytes = self.bytes(name)?;
        if name.ends_with("-body.xml") {
            let (ct, contents) = unwrap_xml_fixture(&bytes, name)?;
            return Ok(body_of(contents.into_bytes(), given.unwrap_or(&ct)));
        }
        Ok(body_of(bytes, given.unwrap_or(type_by_extension(name))))
    }
}

/// The content type a fixture's extension implies.
pub fn type_by_extension(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("json") => "application/json",
        Some("xml") => "application/xml",
        Some("jpg") | Some("jpeg") => "image/jpeg",
        Some("pdf") => "application/pdf",
        _ => "text/plain",
    }
}

/// A present body: JSON content types hold parsed JSON, textual types hold
/// text, everything else holds the bytes.
pub fn body_of(bytes: Vec<u8>, content_type: &str) -> Body {
    let base = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let is_json = base == "application/json" || base.ends_with("+json");
    let content = match (is_json, String::from_utf8(bytes)) {
        (true, Ok(text)) => match serde_json::from_str(&text) {
            Ok(v) => BodyContent::Json(v),
            Err(_) => BodyContent::Text(text),
        },
        (false, Ok(text)) if is_textual(&base) => BodyContent::Text(text),
        (_, Ok(text)) => BodyContent::Bytes(text.into_bytes()),
        (_, Err(e)) => BodyContent::Bytes(e.into_bytes()),
    };
    Body::Present {
        content,
        content_type: Some(content_type.to_string()),
    }
}

fn is_textual(base: &str) -> bool {
    base.starts_with("text/")
        || base.ends_with("xml")
        || base == "application/x-www-form-urlencoded"
        || base.starts_with("multipart/")
}

/// Reads a `<body><contentType/><contents/></body>` wrapper fixture.
fn unwrap_xml_fixture(bytes: &[u8], name: &str) -> Result<(String, String), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("fixture {name}: {e}"))?;
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("fixture {name}: {e}"))?;
    let child = |tag: &str| {
        doc.root_element()
            .children()
            .find(|n| n.is_element() && n.tag_name().name() == tag)
    };
    let content_type = child("contentType")
        .and_then(|n| n.text())
        .map(|t| t.trim().to_string())
        .unwrap_or_else(|| "text/plain".into());
    let contents_node = child("contents").ok_or(format!("fixture {name} has no <contents>"))?;
    let contents: String = contents_node
        .children()
        .filter_map(|n| n.text())
        .collect::<String>()
        .trim()
        .to_string();
    let contents = match contents_node.attribute("eol") {
        Some("CRLF") => contents.replace('\n', "\r\n"),
        _ => contents,
    };
    Ok((content_type, contents))
}
