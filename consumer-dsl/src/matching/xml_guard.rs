//! A linear pre-scan of XML text that refuses documents roxmltree would
//! take super-linear time on.
//!
//! roxmltree checks each attribute against the element's earlier ones
//! (quadratic in the attributes of one element: 40,000 attributes take
//! tens of seconds), so an element may carry at most
//! [`MAX_ATTRIBUTES_PER_ELEMENT`]. Element nesting needs no guard: the
//! parser keeps its own stack and the comparator stops at its depth limit.

/// Attributes one element may carry (namespace declarations included).
pub const MAX_ATTRIBUTES_PER_ELEMENT: usize = 1024;

/// `Err(reason)` when some element of `text` carries more than
/// [`MAX_ATTRIBUTES_PER_ELEMENT`] attributes. Counts `=` signs outside
/// quotes inside tags; comments, CDATA sections, processing instructions
/// and declarations are skipped whole. Malformed input is left to the
/// parser to refuse.
pub fn check(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(open) = find(bytes, i, b"<") {
        let rest = bytes.get(open..).unwrap_or_default();
        let skip_to = [
            (&b"<!--"[..], &b"-->"[..]),
            (b"<![CDATA[", b"]]>"),
            (b"<?", b"?>"),
            (b"<!", b">"),
        ]
        .into_iter()
        .find(|(start, _)| rest.starts_with(start));
        i = match skip_to {
            Some((start, end)) => match find(bytes, open + start.len(), end) {
                Some(at) => at + end.len(),
                None => return Ok(()),
            },
            None => scan_tag(bytes, open + 1)?,
        };
    }
    Ok(())
}

/// Counts the attributes of the tag starting at `from`; returns where the
/// tag ends.
fn scan_tag(bytes: &[u8], from: usize) -> Result<usize, String> {
    let mut quote: Option<u8> = None;
    let mut attributes = 0usize;
    for (offset, &b) in bytes.get(from..).unwrap_or_default().iter().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'=') => {
                attributes += 1;
                if attributes > MAX_ATTRIBUTES_PER_ELEMENT {
                    return Err(format!(
                        "an element has more than {MAX_ATTRIBUTES_PER_ELEMENT} attributes"
                    ));
                }
            }
            (None, b'>') => return Ok(from + offset + 1),
            _ => {}
        }
    }
    Ok(bytes.len())
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_documents_pass() {
        let table = [
            "<a x='1' y=\"2\"><b z='a=b>c'/>text = 1 > 0</a>",
            "<?xml version='1.0'?><!-- a = ' --><a><![CDATA[ <x a=1 a=2> ]]></a>",
            "<!DOCTYPE a><a/>",
            "",
            "<a",
        ];
        for doc in table {
            assert_eq!(check(doc), Ok(()), "{doc}");
        }
    }

    #[test]
    fn an_element_with_too_many_attributes_is_refused() {
        let attrs: String = (0..=MAX_ATTRIBUTES_PER_ELEMENT)
            .map(|i| format!(" a{i}='1'"))
            .collect();
        assert!(check(&format!("<r{attrs}/>")).is_err());
        // Spread over elements, the same number is fine.
        let spread: String = (0..=MAX_ATTRIBUTES_PER_ELEMENT)
            .map(|i| format!("<c a{i}='1'/>"))
            .collect();
        assert_eq!(check(&format!("<r>{spread}</r>")), Ok(()));
        // A comment holding a quote does not hide the attack.
        assert!(check(&format!("<!-- ' --><r{attrs}/>")).is_err());
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_scanned_without_panicking(s in "[<>!?\\[\\]'\"= a-zA-Z\\-]{0,80}|\\PC{0,40}") {
            // Fewer `=` than the limit can never be refused.
            proptest::prop_assert_eq!(check(&s), Ok(()));
        }
    }
}
