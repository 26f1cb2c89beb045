//! Secrets by the shape of the value, whatever its name: JWTs (three
//! base64url segments, the header starting `eyJ`), tokens with a known
//! issuer prefix (`ghp_`, `sk_live_`, `AKIA`, `xoxb-`, …), and long
//! random-looking strings (≥ 24 characters of the base64, hex or token
//! alphabet that do not read as words).
//!
//! Not hidden: UUIDs, ISO dates and times, URLs and paths made of words,
//! identifiers in any case convention, and digests labelled as such
//! (`sha256:…`); long hex and random-looking ids are shown under a name
//! that says they are ids or digests (`taskId`, `sha`, `etag`), where
//! the caller passes `ids`.

use super::HIDDEN;

/// Shortest random-looking run hidden.
const MIN_RANDOM: usize = 24;
/// Shortest hex run hidden (MongoDB-style 24-hex ids are shown).
const MIN_HEX: usize = 32;
/// Most characters per word-like piece of a random string (measured:
/// random base62/base64 gives about 1.5, words and identifiers 3 or more).
const MAX_PIECE: f64 = 2.2;

/// Issuers' token prefixes: a run starting with one and 16+ long is hidden.
const PREFIXES: [&str; 20] = [
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxr-",
    "xoxs-",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "sk-",
    "AKIA",
    "ASIA",
    "AIza",
    "npm_",
];

/// Digest labels: the run after one is a digest, shown.
const DIGEST_LABELS: [&str; 5] = ["sha256:", "sha512:", "sha1:", "md5:", "sha384:"];

/// A character of a token run (base64, base64url, hex, token alphabets;
/// `=` only as padding at the end, so `name=value` is two runs).
fn in_run(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '/' | '.' | '~')
}

/// `text` with JWTs, prefixed tokens and random-looking runs hidden;
/// `ids`: the text is an id's or a digest's (long hex and random-looking
/// runs shown).
pub fn hide(text: &str, ids: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in runs(text) {
        out.push_str(&text[at..start]);
        let run = &text[start..end];
        let before = &text.as_bytes()[start.saturating_sub(8)..start];
        let labelled = DIGEST_LABELS
            .iter()
            .any(|l| before.to_ascii_lowercase().ends_with(l.as_bytes()));
        if labelled {
            out.push_str(run);
        } else {
            out.push_str(&hide_run(run, ids));
        }
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// The maximal token runs of `text` with their `=` padding: (start, end).
fn runs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if in_run(c) {
            start.get_or_insert(i);
            continue;
        }
        let Some(s) = start.take() else { continue };
        let mut end = i;
        if c == '=' {
            // padding: `=`s not followed by more of a run
            let mut pad = i + 1;
            while chars.peek().is_some_and(|&(_, n)| n == '=') {
                chars.next();
                pad += 1;
            }
            if !chars.peek().is_some_and(|&(_, n)| in_run(n)) {
                end = pad;
            }
        }
        out.push((s, end));
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// One run with its secret parts hidden: a JWT, a prefixed token or a
/// random-looking run whole; else each `.`- or `/`-separated segment (a
/// host's label, a path's segment) that is one.
fn hide_run(run: &str, ids: bool) -> String {
    let secret = |s: &str| {
        let t = s.trim_end_matches(['.', '-', '/']);
        is_jwt(t) || is_prefixed(t) || !ids && is_random(t)
    };
    if secret(run) && !has_word_segment(run) {
        return HIDDEN.to_owned();
    }
    let mut out = String::with_capacity(run.len());
    let mut at = 0;
    for (i, c) in run.char_indices().filter(|&(_, c)| c == '.' || c == '/') {
        out.push_str(if secret(&run[at..i]) {
            HIDDEN
        } else {
            &run[at..i]
        });
        out.push(c);
        at = i + 1;
    }
    out.push_str(if secret(&run[at..]) {
        HIDDEN
    } else {
        &run[at..]
    });
    out
}

/// A segment of the run is a plain word (`users`, `Orders`, `API`): the
/// run is a path or a name, never hidden whole.
fn has_word_segment(run: &str) -> bool {
    run.split(['.', '/']).any(|s| {
        s.len() >= 3
            && s.chars().all(|c| c.is_ascii_alphabetic())
            && (s.chars().skip(1).all(|c| c.is_ascii_lowercase())
                || s.chars().all(|c| c.is_ascii_uppercase()))
    })
}

/// `eyJ…​.….…`: a JWT (or a JWE: more segments).
fn is_jwt(run: &str) -> bool {
    let segments: Vec<&str> = run.split('.').collect();
    segments.len() >= 3
        && segments[0].starts_with("eyJ")
        && segments[0].len() >= 10
        && segments[1].len() >= 2
        && segments.iter().all(|s| {
            s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '=')
        })
}

/// A token with an issuer's prefix.
fn is_prefixed(run: &str) -> bool {
    run.len() >= 16
        && PREFIXES.iter().any(|p| run.starts_with(p))
        && run.chars().any(|c| c.is_ascii_digit())
}

/// True for a UUID (`8-4-4-4-12` hex).
fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()))
}

/// A segment (no `.` or `/` inside, or a base64 run) that looks random:
/// long hex, or 24+ characters whose word-like pieces are short; ids and
/// UUIDs (alone or in a run) are not.
pub fn is_random(s: &str) -> bool {
    let body = s.trim_end_matches('=');
    if body.len() < MIN_RANDOM || is_uuid(body) || contains_uuid(body) {
        return false;
    }
    let hex = body.chars().all(|c| c.is_ascii_hexdigit());
    if hex {
        let digits = body.chars().any(|c| c.is_ascii_digit());
        let letters = body.chars().any(|c| c.is_ascii_alphabetic());
        return body.len() >= MIN_HEX && digits && letters;
    }
    if !body.chars().any(|c| c.is_ascii_lowercase()) {
        // base32 seeds, key ids: one long upper-case run with digits
        // inside; `SCREAMING_SNAKE_2024` constants are words
        let count = |p: &str, f: fn(&char) -> bool| p.chars().filter(f).count();
        return body.split(|c: char| !c.is_ascii_alphanumeric()).any(|p| {
            p.len() >= MIN_RANDOM
                && count(p, char::is_ascii_digit) >= 2
                && count(p, char::is_ascii_alphabetic) >= 8
        });
    }
    piece_length(body) <= MAX_PIECE
}

/// A UUID inside a longer run (`task-<uuid>`): an id, not random.
fn contains_uuid(s: &str) -> bool {
    s.len() > 36
        && (0..=s.len() - 36)
            .any(|i| s.is_char_boundary(i) && s.get(i..i + 36).is_some_and(is_uuid))
}

/// Letters and digits per word-like piece: a piece is a run of digits, or
/// one optional capital and lower-case letters (`getUserV2` → `get`,
/// `User`, `V`, `2`; `XMLHttp` → `X`, `M`, `L`, `Http`).
fn piece_length(s: &str) -> f64 {
    let mut pieces = 0usize;
    let mut chars = 0usize;
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if !c.is_ascii_alphanumeric() {
            prev = None;
            continue;
        }
        chars += 1;
        let joins = prev.is_some_and(|p| {
            p.is_ascii_digit() && c.is_ascii_digit()
                || p.is_ascii_lowercase() && c.is_ascii_lowercase()
                || p.is_ascii_uppercase() && c.is_ascii_lowercase()
        });
        if !joins {
            pieces += 1;
        }
        prev = Some(c);
    }
    chars as f64 / pieces.max(1) as f64
}
