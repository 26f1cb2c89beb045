//! Which names are a secret's (`Authorization`, `X-Access-Key`, `pwd`,
//! `jwt`, `sig`, …) and which name an identifier or a digest (`taskId`,
//! `sha`, `etag`): the value of the first is hidden whatever it looks
//! like, the second may be long hex or random-looking and still shown.

/// Parts that make a word of a name a secret's wherever they sit in it
/// (`apiSecret`, `X-Access-Key`, `passwd`, `XSRF-TOKEN`, `authz`, `sig`).
const STEMS: [&str; 11] = [
    "secret", "token", "key", "pass", "pwd", "auth", "sig", "cred", "jwt", "session", "cookie",
];

/// Short words that are a secret's only as a whole word.
const WORDS: [&str; 6] = ["sid", "pin", "otp", "totp", "bearer", "nonce"];

/// Words holding a stem that are not about secrets: shown.
const BENIGN_WORDS: [&str; 36] = [
    "author",
    "authors",
    "authored",
    "authorship",
    "authority",
    "authorities",
    "signal",
    "signals",
    "sign",
    "signin",
    "signup",
    "signout",
    "design",
    "designs",
    "designer",
    "designation",
    "assign",
    "assigned",
    "assignee",
    "assignees",
    "assignment",
    "assignments",
    "keyword",
    "keywords",
    "keyboard",
    "monkey",
    "turkey",
    "hockey",
    "donkey",
    "passenger",
    "passengers",
    "passage",
    "compass",
    "passed",
    "passing",
    "bypassed",
];

/// Whole names holding a stem that are counts or kinds, not secrets
/// (a model's `max_tokens`, OAuth's `token_type`).
const BENIGN_NAMES: [&str; 11] = [
    "maxtokens",
    "maxoutputtokens",
    "maxcompletiontokens",
    "totaltokens",
    "inputtokens",
    "outputtokens",
    "prompttokens",
    "completiontokens",
    "numtokens",
    "tokencount",
    "tokentype",
];

/// Name endings of identifiers and digests: their values are shown even
/// when long hex or random-looking (`_id`, `taskId`, `sha`, `etag`).
const ID_ENDS: [&str; 17] = [
    "id", "ids", "uuid", "sha", "sha1", "sha256", "sha512", "md5", "digest", "hash", "etag",
    "checksum", "commit", "revision", "rev", "ref", "version",
];

/// The words of a name, lower case: split at anything not a letter or
/// digit and where a lower-case letter or digit meets an upper-case one
/// (`X-Api-Key`, `apiKey`, `APIKey` → `api`, `key`).
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            push_word(&mut out, &mut word);
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || next_lower && p.is_uppercase()
            });
        if boundary {
            push_word(&mut out, &mut word);
        }
        word.extend(c.to_lowercase());
    }
    push_word(&mut out, &mut word);
    out
}

fn push_word(out: &mut Vec<String>, word: &mut String) {
    if !word.is_empty() {
        out.push(std::mem::take(word));
    }
}

/// True when a header, parameter, field or JSON key names a secret: one
/// of its words holds a stem (`secret`, `token`, `key`, `pass`, `pwd`,
/// `auth`, `sig`, `cred`, `jwt`, `session`, `cookie`) or is a short
/// secret word (`sid`, `pin`, `otp`, …), in any case, unless it is a
/// known harmless word (`author`, `signal`, `keyword`), count
/// (`max_tokens`) or a bare `key`.
pub fn is_secret_name(name: &str) -> bool {
    let words = words(name);
    // a bare `key` names an identifier: a V4 interaction's key, a Kafka
    // message's key, a key-value pair's key (`apiKey`, `X-Access-Key` are
    // secrets'); its value still passes the shape rules
    if words == ["key"] || BENIGN_NAMES.contains(&words.concat().as_str()) {
        return false;
    }
    words.iter().any(|w| {
        let w = w.as_str();
        WORDS.contains(&w) || !BENIGN_WORDS.contains(&w) && STEMS.iter().any(|s| w.contains(s))
    })
}

/// True when a name names an identifier or a digest (and not a secret).
pub fn is_id_name(name: &str) -> bool {
    let words = words(name);
    words.last().is_some_and(|w| ID_ENDS.contains(&w.as_str())) && !is_secret_name(name)
}
