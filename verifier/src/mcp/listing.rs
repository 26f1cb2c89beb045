//! A profile's `tools/list` as the verifier keeps it, and the budget it is
//! read under.
//!
//! Each tool is kept as its RFC 8785 canonical text (`canon.rs`), not as
//! a `serde_json::Value` tree: a tool is parsed only when a check asks for
//! it by name, once, and that tree is kept for the run's other calls (a
//! run calls the same few tools many times; the rest stay text), with its
//! `outputSchema` and `inputSchema` compiled at their first use and kept
//! beside it ([`Listed`]): each listed tool is judged by its own schemas,
//! and no schema is serialised or looked up per call. The pages are read
//! under one budget for the whole listing —
//! [`MAX_LISTING_BYTES`] of page bodies (and of kept text),
//! [`MAX_LISTED_TOOLS`] tools, [`MAX_TOOL_BYTES`] for one tool,
//! [`MAX_PAGES`] pages — checked as each page arrives; the first page past
//! it ends the listing as [`Listing::TooLarge`]: one `TOOL_LIST_TOO_LARGE`
//! for the endpoint, and nothing the listing would have decided (a missing
//! tool, a schema, the digest) is judged.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use accord_dsl::schema::Validator;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::finding::{Finding, Layer, codes};

/// Most bytes of page bodies one listing may take (and of canonical text
/// kept from them).
pub const MAX_LISTING_BYTES: usize = 16 * 1024 * 1024;
/// Most tools one listing may hold.
pub const MAX_LISTED_TOOLS: usize = 10_000;
/// Most canonical bytes of one tool.
pub const MAX_TOOL_BYTES: usize = 1024 * 1024;
/// Most pages one listing may take.
pub const MAX_PAGES: usize = 100;

/// One listed tool: its name (when a string) and its canonical text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub name: Option<Box<str>>,
    pub text: Box<str>,
    /// The text parsed, from the first check that asked for the tool.
    parsed: OnceLock<Option<Listed>>,
}

/// A listed tool parsed, with its declared schemas compiled at their first
/// use (a run calls the same few tools many times: compiling is most of
/// the cost of checking a result). It reads as the tool's JSON (`Deref`).
#[derive(Clone)]
pub struct Listed {
    value: Value,
    /// `None` when the tool declares no `outputSchema`; `Err` says why the
    /// one it declares does not compile.
    output: OnceLock<Option<Result<Validator, String>>>,
    /// `None` when the tool declares no `inputSchema` or it does not compile
    /// (such a schema refuses nothing).
    input: OnceLock<Option<Validator>>,
}

impl Listed {
    pub fn new(value: Value) -> Listed {
        Listed {
            value,
            output: OnceLock::new(),
            input: OnceLock::new(),
        }
    }

    /// The tool as listed.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The compiled `outputSchema` (in the dialect its `$schema` names),
    /// when the tool declares one; `Err` says why it does not compile.
    pub fn output_validator(&self) -> Option<Result<&Validator, &str>> {
        self.output
            .get_or_init(|| {
                let schema = self.value.get("outputSchema")?;
                Some(accord_dsl::schema::compile_declared(schema))
            })
            .as_ref()
            .map(|r| r.as_ref().map_err(String::as_str))
    }

    /// The compiled `inputSchema`, when declared and usable.
    pub fn input_validator(&self) -> Option<&Validator> {
        self.input
            .get_or_init(|| {
                let schema = self.value.get("inputSchema")?;
                accord_dsl::schema::compile_declared(schema).ok()
            })
            .as_ref()
    }
}

impl std::ops::Deref for Listed {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.value
    }
}

impl std::fmt::Debug for Listed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value.fmt(f)
    }
}

impl PartialEq for Listed {
    fn eq(&self, other: &Listed) -> bool {
        self.value == other.value
    }
}

impl Eq for Listed {}

impl Entry {
    pub fn new(name: Option<Box<str>>, text: Box<str>) -> Entry {
        Entry {
            name,
            text,
            parsed: OnceLock::new(),
        }
    }
}

/// The tools of a listing read whole, in the server's order.
#[derive(Debug, Default)]
pub(super) struct Tools {
    entries: Vec<Entry>,
    bytes: usize,
}

impl Tools {
    pub fn push(&mut self, entry: Entry) {
        self.bytes += entry.text.len();
        self.entries.push(entry);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Bytes of canonical text kept.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The first tool named `name`, parsed (once: later calls get the
    /// same tree and its compiled schemas).
    pub fn find(&self, name: &str) -> Option<&Listed> {
        let entry = self
            .entries
            .iter()
            .find(|e| e.name.as_deref() == Some(name))?;
        entry
            .parsed
            .get_or_init(|| serde_json::from_str(&entry.text).ok().map(Listed::new))
            .as_ref()
    }

    /// `sha256:` over the RFC 8785 text of the tools ordered by name: what
    /// `accord_dsl::canonical::digest` gives for the array of them.
    pub fn digest(&self) -> String {
        let mut sorted: Vec<&Entry> = self.entries.iter().collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        let mut hash = Sha256::new();
        hash.update(b"[");
        for (i, entry) in sorted.into_iter().enumerate() {
            if i > 0 {
                hash.update(b",");
            }
            hash.update(entry.text.as_bytes());
        }
        hash.update(b"]");
        format!("sha256:{}", hex::encode(hash.finalize()))
    }

    /// The whole listing as one JSON array text (for the credential canaries).
    pub fn text(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes + self.entries.len() + 2);
        out.push(b'[');
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(entry.text.as_bytes());
        }
        out.push(b']');
        out
    }
}

impl Tools {
    /// The tools of parsed values, in their order.
    pub fn of(values: &[Value]) -> Tools {
        let mut tools = Tools::default();
        for v in values {
            tools.push(Entry::new(
                v["name"].as_str().map(Into::into),
                accord_dsl::canonical::canonical_json(v).into(),
            ));
        }
        tools
    }
}

/// The canonical digest of a listing's `tools` (RFC 8785 JSON of the tools
/// ordered by name, sha256): the digest a verification records for it, and
/// the one the broker stores a published tool list under.
pub fn digest_of(tools: &[Value]) -> String {
    Tools::of(tools).digest()
}

/// A profile's tools, or why they are not known.
#[derive(Debug)]
pub(super) enum Listing {
    /// Every page read, within the budget.
    Read(Tools),
    /// Not read (an error, a cut-off): `EXPECTATION_UNCHECKED` where a
    /// check needed it.
    Unread(String),
    /// Past the budget: reading stopped; nothing in it is judged.
    TooLarge(TooLarge),
}

/// A listing past its budget, and whether its one finding was given.
#[derive(Debug)]
pub(super) struct TooLarge {
    detail: String,
    said: AtomicBool,
}

impl Listing {
    pub fn too_large(detail: String) -> Listing {
        Listing::TooLarge(TooLarge {
            detail,
            said: AtomicBool::new(false),
        })
    }

    /// The tools, when the listing was read whole.
    pub fn tools(&self) -> Option<&Tools> {
        match self {
            Listing::Read(tools) => Some(tools),
            _ => None,
        }
    }

    /// The first tool named `name`, when the listing was read whole.
    pub fn tool(&self, name: &str) -> Option<&Listed> {
        self.tools().and_then(|t| t.find(name))
    }

    /// The `TOOL_LIST_TOO_LARGE` finding of an oversized listing, to the
    /// first caller only (one fault, one finding).
    pub fn take_finding(&self, path: &str) -> Option<Finding> {
        let Listing::TooLarge(over) = self else {
            return None;
        };
        if over.said.swap(true, Ordering::Relaxed) {
            return None;
        }
        Some(Finding::new(
            Layer::Protocol,
            codes::TOOL_LIST_TOO_LARGE,
            path,
            over.detail.clone(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_digest_is_the_contract_digest_of_the_tools_ordered_by_name() {
        let b = json!({"name": "b", "inputSchema": {"type": "object"}});
        let a = json!({"name": "a", "title": "A"});
        let unnamed = json!({"title": 3});
        let tools = Tools::of(&[b.clone(), unnamed.clone(), a.clone()]);
        let expected = accord_dsl::canonical::digest(&json!([unnamed, a, b]));
        assert_eq!(tools.digest(), format!("sha256:{expected}"));
        assert_eq!(tools.find("a").map(Listed::value), Some(&a));
        assert!(
            std::ptr::eq(tools.find("a").expect("a"), tools.find("a").expect("a")),
            "parsed once"
        );
        assert_eq!(tools.len(), 3);
    }

    #[test]
    fn an_oversized_listing_gives_its_finding_once() {
        let listing = Listing::too_large("past the budget".into());
        let first = listing.take_finding("tools/list").expect("the finding");
        assert_eq!(first.reason_code, "TOOL_LIST_TOO_LARGE");
        assert_eq!(listing.take_finding("tools/list"), None);
        assert_eq!(listing.tool("a"), None);
    }
}
