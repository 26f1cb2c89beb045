//! `ACCORD_BENCH_STATEMENTS=1`: every statement the broker runs is timed
//! with diesel's instrumentation (from its start to its end, on the
//! broker's database thread), and the totals by statement text are printed
//! after the run: how many per publication, the mean, the share of the
//! time spent in statements. Timing adds its own cost, so the throughput
//! of such a run is not the figure to quote.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use diesel::connection::{Instrumentation, InstrumentationEvent};

static TIMES: LazyLock<Mutex<HashMap<String, (u64, Duration)>>> = LazyLock::new(Mutex::default);

fn timing() -> Option<Box<dyn Instrumentation>> {
    let mut started: Option<(String, Instant)> = None;
    Some(Box::new(
        move |event: InstrumentationEvent<'_>| match event {
            InstrumentationEvent::StartQuery { query, .. } => {
                let text = query.to_string();
                let sql = text.split(" -- binds: ").next().unwrap_or_default();
                started = Some((sql.to_owned(), Instant::now()));
            }
            InstrumentationEvent::FinishQuery { .. } => {
                if let Some((sql, at)) = started.take() {
                    let took = at.elapsed();
                    let mut all = TIMES.lock().expect("lock");
                    let entry = all.entry(sql).or_default();
                    entry.0 += 1;
                    entry.1 += took;
                }
            }
            _ => {}
        },
    ))
}

/// Times the statements of every connection made from now on, when
/// `ACCORD_BENCH_STATEMENTS` is set.
pub fn install() -> bool {
    let on = std::env::var_os("ACCORD_BENCH_STATEMENTS").is_some();
    if on {
        diesel::connection::set_default_instrumentation(timing).expect("instrumentation");
    }
    on
}

/// Forgets what the warm-up ran.
pub fn reset() {
    TIMES.lock().expect("lock").clear();
}

/// Prints the statements by total time, per publication.
pub fn report(publications: usize) {
    let all = TIMES.lock().expect("lock");
    let mut rows: Vec<_> = all.iter().collect();
    rows.sort_by_key(|(_, (_, total))| std::cmp::Reverse(*total));
    let sum: Duration = rows.iter().map(|(_, (_, t))| *t).sum();
    let per = |n: u64| n as f64 / publications as f64;
    println!(
        "statements: {:.1} per publication, {:.0} µs of statement time per publication",
        per(rows.iter().map(|(_, (n, _))| *n).sum()),
        sum.as_secs_f64() * 1e6 / publications as f64,
    );
    for (sql, (n, total)) in rows {
        let short: String = sql.chars().take(110).collect();
        println!(
            "  {:>5.2}/pub {:>7.1} µs mean {:>5.1}%  {short}",
            per(*n),
            total.as_secs_f64() * 1e6 / *n as f64,
            100.0 * total.as_secs_f64() / sum.as_secs_f64().max(f64::EPSILON),
        );
    }
}
