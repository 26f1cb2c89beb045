//! The events of a complete `text/event-stream` body, one at a time, in one
//! pass: each event's `data:` lines joined with `\n` (WHATWG's rules: a
//! `data` field without a colon is empty data, one space after the colon is
//! dropped, comments and other fields are skipped, an event without a
//! blank line after it is discarded).
//!
//! eventsource-stream is not used on a body already read: it re-allocates
//! the rest of its buffer at every line, so a body of many short lines
//! costs its size times its lines (quadratic), and callers collected every
//! event as a `serde_json::Value` where one answer was wanted. Here the
//! body is borrowed, and only the event being looked at is held.

/// The `data` of each event in `body`, lazily.
pub(super) fn events(body: &str) -> impl Iterator<Item = String> + '_ {
    let body = body.strip_prefix('\u{feff}').unwrap_or(body);
    let mut lines = lines(body);
    std::iter::from_fn(move || {
        let mut data: Option<String> = None;
        loop {
            let line = lines.next()?;
            if line.is_empty() {
                match data.take() {
                    Some(mut d) => {
                        d.pop(); // the `\n` after the last data line
                        return Some(d);
                    }
                    None => continue,
                }
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line, ""),
            };
            if field == "data" {
                let d = data.get_or_insert_with(String::new);
                d.push_str(value);
                d.push('\n');
            }
        }
    })
}

/// Lines ended by CRLF, LF or CR (the last one only when ended).
fn lines(body: &str) -> impl Iterator<Item = &str> + '_ {
    let mut rest = body;
    std::iter::from_fn(move || {
        let end = rest.find(['\r', '\n'])?;
        let line = &rest[..end];
        let skip = if rest[end..].starts_with("\r\n") {
            2
        } else {
            1
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(body: &str) -> Vec<String> {
        events(body).collect()
    }

    #[test]
    fn events_are_their_data_lines_joined() {
        let body = "\u{feff}event: message\r\ndata: {\"a\":\r\ndata:1}\r\n\r\n: a comment\n\nid: 3\ndata\n\ndata: last, never ended\n";
        assert_eq!(all(body), ["{\"a\":\n1}", ""]);
        assert_eq!(all("data: x\r\rdata:  y\n\n"), ["x", " y"]);
    }

    #[test]
    fn a_body_of_many_short_lines_is_read_in_one_pass() {
        // 10 MiB of comment lines and empty events: quadratic would not end
        let body = ":\n\n".repeat(3 * 1024 * 1024) + "data: end\n\n";
        assert_eq!(all(&body), ["end"]);
    }
}
