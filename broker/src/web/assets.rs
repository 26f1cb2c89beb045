//! The pages' stylesheet and icon, compiled in and served under a
//! fingerprinted URL: `/ui/static/style.<hash>.css`, where `<hash>` is the
//! first 16 hex digits of the file's SHA-256. Pages link that URL, so it
//! can be cached for a year (`immutable`): a changed stylesheet has a new
//! URL and reaches every browser with the first page it loads.
//!
//! The fixed URLs (`/ui/static/style.css`, `/ui/static/favicon.svg`) keep
//! working with a short cache for links from elsewhere, and so does a
//! fingerprint of another build (a page rendered by the broker before an
//! upgrade): those get today's file, never cached as immutable.

use std::sync::LazyLock;

use actix_web::HttpResponse;
use actix_web::http::header;
use sha2::{Digest, Sha256};

use crate::error::BrokerError;

/// How long a fixed URL, or another build's fingerprint, may be cached.
const SHORT: &str = "public, max-age=300";
/// A fingerprinted URL never changes its content.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Hex digits of the fingerprint.
const HASH_LEN: usize = 16;

/// One compiled-in file.
struct Asset {
    stem: &'static str,
    ext: &'static str,
    kind: &'static str,
    body: &'static str,
    /// `/ui/static/<stem>.<hash>.<ext>`, computed at first use.
    href: LazyLock<String>,
}

macro_rules! asset {
    ($stem:literal, $ext:literal, $kind:literal) => {{
        const BODY: &str = include_str!(concat!("../../../web/static/", $stem, ".", $ext));
        Asset {
            stem: $stem,
            ext: $ext,
            kind: $kind,
            body: BODY,
            href: LazyLock::new(|| format!("/ui/static/{}.{}.{}", $stem, fingerprint(BODY), $ext)),
        }
    }};
}

static STYLE: Asset = asset!("style", "css", "text/css; charset=utf-8");
static FAVICON: Asset = asset!("favicon", "svg", "image/svg+xml");

/// The first [`HASH_LEN`] hex digits of the SHA-256 of `body`.
fn fingerprint(body: &str) -> String {
    let mut hex = hex::encode(Sha256::digest(body.as_bytes()));
    hex.truncate(HASH_LEN);
    hex
}

/// The stylesheet's fingerprinted URL, for `base.html`.
pub fn style_href() -> &'static str {
    STYLE.href.as_str()
}

/// The icon's fingerprinted URL, for `base.html`.
pub fn icon_href() -> &'static str {
    FAVICON.href.as_str()
}

/// How `file` (the last segment under `/ui/static/`) names `asset`: its
/// current fingerprint (`Some(true)`), its fixed name or another
/// well-formed fingerprint (`Some(false)`), or not at all (`None`).
fn names(asset: &Asset, file: &str) -> Option<bool> {
    let middle = file
        .strip_prefix(asset.stem)?
        .strip_suffix(asset.ext)?
        .strip_suffix('.')?;
    if middle.is_empty() {
        return Some(false);
    }
    let hash = middle.strip_prefix('.')?;
    let well_formed = hash.len() == HASH_LEN && hash.bytes().all(|b| b.is_ascii_hexdigit());
    well_formed.then(|| asset.href.ends_with(&format!(".{hash}.{}", asset.ext)))
}

/// The answer for `file`, or 404.
pub fn serve(file: &str) -> Result<HttpResponse, BrokerError> {
    for asset in [&STYLE, &FAVICON] {
        if let Some(current) = names(asset, file) {
            return Ok(HttpResponse::Ok()
                .insert_header((header::CONTENT_TYPE, asset.kind))
                .insert_header((
                    header::CACHE_CONTROL,
                    if current { IMMUTABLE } else { SHORT },
                ))
                .body(asset.body));
        }
    }
    Err(BrokerError::not_found(format!("The file '{file}'")))
}

/// `GET /favicon.ico`: the icon, under a fixed URL.
pub fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, FAVICON.kind))
        .insert_header((header::CACHE_CONTROL, SHORT))
        .body(FAVICON.body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_named_by_its_fixed_name_or_a_fingerprint() {
        let current = style_href().trim_start_matches("/ui/static/");
        assert_eq!(names(&STYLE, current), Some(true), "{current}");
        assert_eq!(names(&STYLE, "style.css"), Some(false));
        assert_eq!(names(&STYLE, "style.0123456789abcdef.css"), Some(false));
        for wrong in [
            "style.x.css",
            "style..css",
            "style.css.css",
            "styles.css",
            "style.svg",
        ] {
            assert_eq!(names(&STYLE, wrong), None, "{wrong}");
        }
        assert_ne!(style_href(), icon_href());
        assert_eq!(fingerprint("a").len(), HASH_LEN);
        assert_ne!(fingerprint("a"), fingerprint("b"));
    }
}
