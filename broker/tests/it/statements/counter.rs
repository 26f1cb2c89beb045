//! Statements counted per database URL by diesel's instrumentation, for
//! every connection made after [`install`] (process-wide: each test's
//! database has its own URL, so tests running at once do not mix). The
//! text of each statement is kept only for the URLs a test [`watch`]es.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use diesel::connection::{Instrumentation, InstrumentationEvent};

#[derive(Default)]
struct Counts {
    /// Statements run, per URL.
    counts: HashMap<String, u64>,
    /// The statements' text (binds left off), per watched URL.
    texts: HashMap<String, Vec<String>>,
}

static COUNTS: LazyLock<Mutex<Counts>> = LazyLock::new(Mutex::default);

fn counting() -> Option<Box<dyn Instrumentation>> {
    let mut url: Option<String> = None;
    Some(Box::new(
        move |event: InstrumentationEvent<'_>| match event {
            InstrumentationEvent::StartEstablishConnection { url: u, .. } => {
                url = Some(u.to_owned())
            }
            InstrumentationEvent::StartQuery { query, .. } => {
                if let Some(u) = &url {
                    let mut all = COUNTS.lock().expect("lock");
                    *all.counts.entry(u.clone()).or_default() += 1;
                    if let Some(texts) = all.texts.get_mut(u) {
                        let text = query.to_string();
                        let sql = text.split(" -- binds: ").next().unwrap_or_default();
                        texts.push(sql.to_owned());
                    }
                }
            }
            _ => {}
        },
    ))
}

/// Counts the statements of every connection made from now on.
pub fn install() {
    diesel::connection::set_default_instrumentation(counting).expect("instrumentation");
}

/// Keeps the text of the statements run on `url` from now on.
pub fn watch(url: &str) {
    COUNTS
        .lock()
        .expect("lock")
        .texts
        .entry(url.to_owned())
        .or_default();
}

/// Statements run so far on the database `url` names.
pub fn count(url: &str) -> u64 {
    let all = COUNTS.lock().expect("lock");
    all.counts
        .iter()
        .filter(|(u, _)| u.contains(url) || url.contains(u.as_str()))
        .map(|(_, n)| *n)
        .sum()
}

/// The text of the statements run so far on the watched `url`.
pub fn texts(url: &str) -> Vec<String> {
    let all = COUNTS.lock().expect("lock");
    all.texts.get(url).cloned().unwrap_or_default()
}
