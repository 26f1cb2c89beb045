//! Peers on the official Python SDKs (`tests/peers/*.py`), started as
//! processes on a free loopback port and killed when dropped.
//!
//! They need `ACCORD_PYTHON`, a Python with the SDKs installed (`.ci/run`
//! sets it); without it a test says it skipped, except under `CI=true`.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::repo_root;

/// A running peer; killed on drop.
pub struct Peer {
    child: Child,
    pub base: String,
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Python to run peers with, or `None` (said) when the test skips.
pub fn python() -> Option<String> {
    match std::env::var("ACCORD_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but ACCORD_PYTHON (a Python with the mcp and a2a-sdk SDKs) is not set")
        }
        _ => {
            eprintln!("skipped the SDK peer: ACCORD_PYTHON is not set");
            None
        }
    }
}

/// Starts `script` (relative to the repository) with `--fault` if given,
/// and waits until it listens.
pub fn start(python: &str, script: &str, fault: Option<&str>) -> Peer {
    // one start at a time: a free port is only free until a peer binds it,
    // and two peers started together could be handed the same one (the
    // second then dies, and the wait below would see the first listening)
    static STARTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = STARTING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut cmd = Command::new(python);
    cmd.arg(repo_root().join(script))
        .args(["--port", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(f) = fault {
        cmd.args(["--fault", f]);
    }
    let mut peer = Peer {
        child: cmd.spawn().expect("the peer starts"),
        base: format!("http://127.0.0.1:{port}"),
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        let exited = peer.child.try_wait().ok().flatten();
        assert!(
            exited.is_none(),
            "{script} exited before it listened: {exited:?}"
        );
        assert!(
            Instant::now() < deadline,
            "{script} did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    peer
}
