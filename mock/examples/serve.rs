//! A bare mock for load measurements (`mock/bench/bounds.py`): serves the
//! contract file given (compiled JSON) with the default options on an
//! ephemeral loopback port, prints its URL, and serves until killed.
//!
//! Usage: `cargo run -p accord-mock --example serve -- CONTRACT.json`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: serve CONTRACT.json")?;
    let text = std::fs::read_to_string(&path)?;
    let value: serde_json::Value = serde_json::from_str(&text)?;
    let contract = accord_dsl::pact::from_value(&value, &path)?;
    let mock = accord_mock::MockServer::start(&contract)?;
    println!("{}", mock.url());
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
