//! An answer read whole, as both paths of [`crate::transport`] hand it
//! over: its headers listed (names lower case, values in order) and its
//! body with its `Content-Encoding` undone under the size cap.

use std::time::{Duration, Instant};

use crate::transport::{CutOff, Listing, Received};

/// An answer read whole: its headers listed (unless `listing` says not
/// to), its body decoded (capped).
pub(crate) fn collected(
    status: u16,
    headers: &reqwest::header::HeaderMap,
    body: Vec<u8>,
    ack: Duration,
    start: Instant,
    cap: usize,
    listing: Listing,
) -> Result<Received, CutOff> {
    let encoding = headers.get(reqwest::header::CONTENT_ENCODING).map(|v| {
        String::from_utf8_lossy(v.as_bytes())
            .trim()
            .to_ascii_lowercase()
    });
    let body = decoded(body, encoding.as_deref(), cap)?;
    let mut listed: Vec<(String, String)> = Vec::new();
    if listing == Listing::Headers {
        listed.reserve_exact(headers.len());
        listed.extend(headers.iter().map(|(n, v)| {
            (
                n.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        }));
    }
    Ok(Received {
        status,
        headers: listed,
        body,
        ack,
        total: start.elapsed(),
    })
}

/// The body with its `Content-Encoding` undone (gzip, deflate), so a
/// provider that compresses because the contract's request sent
/// `Accept-Encoding` is judged on what it meant; the decoded size is capped
/// like the body (a decompression bomb is `TooLarge`). Other encodings,
/// and bodies that do not decode, are kept as received. The headers stay
/// as received.
fn decoded(body: Vec<u8>, encoding: Option<&str>, cap: usize) -> Result<Vec<u8>, CutOff> {
    use std::io::Read;
    let mut out = Vec::new();
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    let read = match encoding {
        Some("gzip" | "x-gzip") => flate2::read::MultiGzDecoder::new(&body[..])
            .take(limit)
            .read_to_end(&mut out),
        Some("deflate") => flate2::read::ZlibDecoder::new(&body[..])
            .take(limit)
            .read_to_end(&mut out),
        _ => return Ok(body),
    };
    match read {
        Ok(_) if out.len() > cap => Err(CutOff::TooLarge(cap)),
        Ok(_) => Ok(out),
        Err(_) => Ok(body),
    }
}
