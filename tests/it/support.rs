//! Helpers shared by the CLI tests.

use std::path::PathBuf;

use assert_cmd::Command;

/// A fresh directory under the system temp dir for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("accord-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// The `accord` binary built for these tests.
pub fn accord() -> Command {
    Command::cargo_bin("accord").expect("accord binary")
}

/// A Pact V4 document from `consumer` to `items` (the fixtures provider):
/// `GET /items/7` in the state "an item exists" answers `item`.
pub fn items_pact(consumer: &str, item: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "consumer": {"name": consumer},
        "provider": {"name": "items"},
        "interactions": [{
            "type": "Synchronous/HTTP",
            "description": "get item 7",
            "providerStates": [{"name": "an item exists", "params": {"id": 7}}],
            "request": {"method": "GET", "path": "/items/7"},
            "response": {"status": 200, "body": {"content": item},
                         "matchingRules": {"body": {"$.name": {"matchers": [{"match": "type"}]}}}}
        }],
        "metadata": {"pactSpecification": {"version": "4.0"}}
    })
}

/// `accord verify` of provider `items` (the fixtures provider, with its
/// state-change URL) against the broker at `broker_url`.
pub fn verify_items(broker_url: &str, provider: &accord_fixtures::http::HttpProvider) -> Command {
    let mut cmd = accord();
    cmd.args(["verify", "--provider", "items", "--provider-base-url"])
        .arg(provider.base_url())
        .arg("--state-change-url")
        .arg(provider.state_change_url())
        .args(["--broker-url", broker_url]);
    cmd
}

/// A request read off a raw connection by a loopback test server.
pub struct RawRequest {
    pub method: String,
    /// Path and query, as sent.
    pub target: String,
    pub body: Vec<u8>,
}

/// Reads one HTTP/1.1 request (request line, headers, a `Content-Length`
/// body); `None` when the peer sent something else.
pub fn read_raw_request(stream: &std::net::TcpStream) -> Option<RawRequest> {
    use std::io::{BufRead, Read};
    let mut reader = std::io::BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(RawRequest {
        method,
        target,
        body,
    })
}

/// The repository root (where `examples/` lives).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `accord mock` running as a child process, killed when dropped.
#[derive(Debug)]
pub struct RunningMock {
    child: std::process::Child,
    /// The first surface line it printed, without its `HTTP `/`A2A `/`MCP ` word.
    pub url: String,
}

impl RunningMock {
    /// Starts `accord mock` with `args` and reads its first surface line,
    /// which must start with `surface` (`"A2A"`, `"MCP"`, `"HTTP"`).
    pub fn start(args: &[&std::ffi::OsStr], surface: &str) -> RunningMock {
        use std::io::BufRead;
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("accord"))
            .arg("mock")
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the mock starts");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the surface line");
        let url = line
            .trim()
            .strip_prefix(&format!("{surface} "))
            .unwrap_or_else(|| panic!("a {surface} line, got {line:?}"))
            .to_owned();
        RunningMock { child, url }
    }
}

impl Drop for RunningMock {
    fn drop(&mut self) {
        drop(self.child.kill());
        drop(self.child.wait());
    }
}
