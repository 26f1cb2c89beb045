//! An HTTP interaction's URL: the provider base URL's text, its trailing
//! `/` trimmed, followed by the request's path, parsed by the url crate,
//! then the query appended.
//!
//! Parsing the whole text again for every request (scheme, host, port,
//! path) cost more of our CPU per request than any other step of building
//! it. A [`BaseUrl`] parses the base once per run; where the base's text
//! is already as the url crate writes it and the path is plain (only
//! unreserved characters and `/`, no dot segment), the URL is the base
//! with its path set, which is the same URL the whole parse gives: nothing
//! in such a path is percent-encoded, removed or read as a query or a
//! fragment. Anything else is parsed whole, as before.

use accord_dsl::model::HttpRequest;

/// The provider base URL, parsed once when appending a plain path to its
/// text yields text the url crate leaves as written.
#[derive(Debug, Clone)]
pub struct BaseUrl {
    url: reqwest::Url,
    /// The base's own path, without its trailing `/` (`""` for none).
    prefix: String,
}

impl BaseUrl {
    /// The base, when its text (trailing `/` trimmed) is what the url
    /// crate writes for it (it adds the `/` of an empty path), without a
    /// query or fragment; `None` otherwise (every URL is then parsed whole).
    pub fn new(base_url: &str) -> Option<BaseUrl> {
        let trimmed = base_url.trim_end_matches('/');
        let url = reqwest::Url::parse(trimmed).ok()?;
        if url.cannot_be_a_base() || url.query().is_some() || url.fragment().is_some() {
            return None;
        }
        let text = url.as_str();
        let prefix = if text == trimmed {
            url.path().to_owned()
        } else if url.path() == "/" && text.strip_suffix('/') == Some(trimmed) {
            String::new()
        } else {
            return None;
        };
        Some(BaseUrl { url, prefix })
    }

    /// The URL of `path` under the base, when `path` is plain.
    fn join(&self, path: &str) -> Option<reqwest::Url> {
        if !plain(path) {
            return None;
        }
        let mut url = self.url.clone();
        if self.prefix.is_empty() {
            url.set_path(path);
        } else {
            let mut whole = String::with_capacity(self.prefix.len() + path.len());
            whole.push_str(&self.prefix);
            whole.push_str(path);
            url.set_path(&whole);
        }
        Some(url)
    }
}

/// True for a path the url crate keeps byte for byte after an authority:
/// it starts with `/`, holds only unreserved characters and `/`, and has
/// no `.` or `..` segment (those are removed).
fn plain(path: &str) -> bool {
    let allowed =
        |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/');
    path.starts_with('/')
        && path.as_bytes().iter().all(allowed)
        && !path
            .split('/')
            .any(|segment| segment == "." || segment == "..")
}

/// The request's URL under the base, its query appended; `Err` with the
/// text when it does not parse (sending reports it as a failed request).
/// `base` is `base_url` parsed by [`BaseUrl::new`], when it could be.
pub fn request_url(
    base_url: &str,
    base: Option<&BaseUrl>,
    request: &HttpRequest,
) -> Result<reqwest::Url, String> {
    let mut parsed = match base.and_then(|b| b.join(&request.path)) {
        Some(url) => url,
        None => parsed_whole(base_url, &request.path)?,
    };
    if let Some(query) = request.query.as_ref().filter(|q| !q.is_empty()) {
        let mut pairs = parsed.query_pairs_mut();
        for (name, values) in query {
            for value in values {
                pairs.append_pair(name, value);
            }
        }
    }
    Ok(parsed)
}

/// The base's text and the path, parsed whole.
fn parsed_whole(base_url: &str, path: &str) -> Result<reqwest::Url, String> {
    let url = format!("{}{}", base_url.trim_end_matches('/'), path);
    reqwest::Url::parse(&url).map_err(|_| url)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASES: &[&str] = &[
        "http://127.0.0.1:8080",
        "http://127.0.0.1:8080/",
        "http://127.0.0.1:8080//",
        "http://localhost:8080/api",
        "http://localhost:8080/api/",
        "http://localhost/api/v1//",
        "http://[::1]:9000/x",
        "https://example.com",
        "http://user:pw@example.com/api",
        "http://example.com/%7Eapi",
        // not as the url crate writes them: parsed whole
        "HTTP://Example.COM/api",
        "http://example.com:80/api",
        "http://127.1/api",
        "http://example.com/a/../api",
        "http://example.com/./api",
        "http://example.com/a b",
        "http://example.com/api?x=1",
        "http://example.com/api#top",
        " http://example.com/api",
        "http://example.com/\tapi",
        "http://exa mple.com",
        "not a url",
        "mailto:someone@example.com",
    ];

    const PATHS: &[&str] = &[
        "/items/1",
        "/",
        "//items",
        "/items//1/",
        "/a.b/c~d/e-f_g",
        "/.hidden/..x/x..",
        // not plain: parsed whole
        "",
        "/items/./1",
        "/items/../1",
        "/items/.",
        "/items/..",
        "/items/%2e%2E/1",
        "/items/%2F",
        "/items?a=1",
        "/items#frag",
        "/items/a b",
        "/items/é",
        "/items/\t1",
        "/items\\1",
        "/items/{id}",
        "/items/a|b",
        "/items/\"q\"",
        "/items/<x>",
        "/items/@:;=,+$&'()*!",
        "items",
        "?x=1",
        "#f",
        ".",
        "/ ",
    ];

    #[test]
    fn every_url_is_the_one_the_whole_parse_gives() {
        for base_url in BASES {
            let base = BaseUrl::new(base_url);
            for path in PATHS {
                for query in [None, Some(vec![("q", "a b&c"), ("q", "é")])] {
                    let mut request = HttpRequest {
                        path: (*path).into(),
                        ..HttpRequest::default()
                    };
                    if let Some(pairs) = &query {
                        let mut q = indexmap::IndexMap::new();
                        for (name, value) in pairs {
                            q.entry(name.to_string())
                                .or_insert_with(Vec::new)
                                .push(value.to_string());
                        }
                        request.query = Some(q);
                    }
                    let fast = request_url(base_url, base.as_ref(), &request);
                    let whole = request_url(base_url, None, &request);
                    assert_eq!(
                        fast.as_ref().map(reqwest::Url::as_str),
                        whole.as_ref().map(reqwest::Url::as_str),
                        "{base_url:?} + {path:?}"
                    );
                    assert_eq!(fast, whole, "{base_url:?} + {path:?}");
                }
            }
        }
    }

    #[test]
    fn canonical_bases_and_plain_paths_take_the_fast_path() {
        for base_url in &BASES[..10] {
            let base = BaseUrl::new(base_url);
            assert!(base.is_some(), "{base_url:?} parsed once");
            for path in &PATHS[..6] {
                let joined = base.as_ref().and_then(|b| b.join(path));
                assert_eq!(joined.is_some(), plain(path), "{base_url:?} + {path:?}");
            }
        }
        for base_url in &BASES[10..] {
            assert!(
                BaseUrl::new(base_url).is_none(),
                "{base_url:?} parsed whole"
            );
        }
        for path in &PATHS[6..] {
            assert!(!plain(path), "{path:?} is not plain");
        }
    }
}
