//! What the end-to-end test drives and reads: the official `pact` binary
//! (run with a deadline, `--retries 1`, no tracking), the broker's HTTP API
//! for checking its state after each step, and the pact files a consumer's
//! test run would have written.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Longest any one `pact` command may run before the test kills it.
const DEADLINE: Duration = Duration::from_secs(120);

/// The Pact CLI named by `ACCORD_PACT_CLI`; `None` (with a printed reason)
/// when it is unset, except under `CI=true`, where that is a failure.
pub fn pact_cli_or_skip() -> Option<PathBuf> {
    match std::env::var("ACCORD_PACT_CLI") {
        Ok(path) if !path.is_empty() => Some(PathBuf::from(path)),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => panic!(
            "CI=true but ACCORD_PACT_CLI is not set: .ci/run installs pact-python-cli and sets it"
        ),
        _ => {
            eprintln!(
                "skipped the Pact CLI end-to-end test: ACCORD_PACT_CLI is not set \
                 (pip install pact-python-cli, then ACCORD_PACT_CLI=/path/to/venv/bin/pact)"
            );
            None
        }
    }
}

/// The outcome of one `pact` command.
#[derive(Debug)]
pub struct Run {
    pub command: String,
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts the exit code, showing the command and its output otherwise.
    #[track_caller]
    pub fn expect(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "`{}` exited {} (expected {code})\n--- stdout\n{}\n--- stderr\n{}",
            self.command, self.code, self.stdout, self.stderr
        );
        self
    }

    /// Both output streams, for message checks.
    pub fn output(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// The `pact` binary bound to one broker URL.
#[derive(Debug, Clone)]
pub struct PactCli {
    pub bin: PathBuf,
    pub broker: String,
}

impl PactCli {
    /// `pact broker SUB ARGS -b URL --retries 1`.
    pub fn broker(&self, sub: &str, args: &[&str]) -> Run {
        let mut all = vec!["broker", sub];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-b", &self.broker, "--retries", "1"]);
        self.run(&all)
    }

    /// `pact verifier --broker-url URL --retries 1 ARGS`.
    pub fn verifier(&self, args: &[&str]) -> Run {
        let mut all = vec!["verifier", "--broker-url", &self.broker, "--retries", "1"];
        all.extend_from_slice(args);
        self.run(&all)
    }

    fn run(&self, args: &[&str]) -> Run {
        let command = format!("pact {}", args.join(" "));
        let mut child = Command::new(&self.bin)
            .args(args)
            .env("PACT_DO_NOT_TRACK", "true")
            .env("PACT_BROKER_HTTP_RETRIES", "1")
            .env_remove("PACT_BROKER_BASE_URL")
            .env_remove("PACT_BROKER_TOKEN")
            .env_remove("PACT_BROKER_USERNAME")
            .env_remove("PACT_BROKER_PASSWORD")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.bin.display()));
        let stdout = drain(&mut child, true);
        let stderr = drain(&mut child, false);
        let code = wait_with_deadline(&mut child, &command);
        let run = Run {
            command,
            code,
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
        };
        // ACCORD_PACT_CLI_SHOW=1 (with --nocapture) shows what each client printed.
        if std::env::var_os("ACCORD_PACT_CLI_SHOW").is_some() {
            eprintln!("### {} -> {}\n{}", run.command, run.code, run.output());
        }
        run
    }
}

fn drain(child: &mut Child, stdout: bool) -> std::thread::JoinHandle<String> {
    let mut pipe: Box<dyn Read + Send> = if stdout {
        Box::new(child.stdout.take().expect("piped stdout"))
    } else {
        Box::new(child.stderr.take().expect("piped stderr"))
    };
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}

/// Waits for the child; a hung client is killed so the test fails instead
/// of hanging CI (a guard, not a timing assertion).
fn wait_with_deadline(child: &mut Child, command: &str) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for pact") {
            return status.code().unwrap_or(-1);
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{command}` did not finish within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Credentials the state reader sends.
#[derive(Debug, Clone)]
pub enum Auth {
    None,
    Bearer(String),
    Basic(String, String),
}

/// Reads the broker's state over its HTTP API.
#[derive(Debug)]
pub struct BrokerApi {
    base: String,
    auth: Auth,
    http: reqwest::blocking::Client,
}

impl BrokerApi {
    /// A reader of the broker at `base`, sending `auth`.
    pub fn new(base: &str, auth: Auth) -> BrokerApi {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("HTTP client");
        BrokerApi {
            base: base.trim_end_matches('/').to_owned(),
            auth,
            http,
        }
    }

    /// GET `path_or_url`: the status and the body as JSON (Null if not JSON).
    pub fn get(&self, path_or_url: &str) -> (u16, Value) {
        let url = if path_or_url.starts_with("http") {
            path_or_url.to_owned()
        } else {
            format!("{}{path_or_url}", self.base)
        };
        let mut request = self
            .http
            .get(&url)
            .header("Accept", "application/hal+json, application/json");
        request = match &self.auth {
            Auth::None => request,
            Auth::Bearer(token) => request.bearer_auth(token),
            Auth::Basic(user, password) => request.basic_auth(user, Some(password)),
        };
        let reply = request.send().unwrap_or_else(|e| panic!("GET {url}: {e}"));
        let status = reply.status().as_u16();
        let text = reply.text().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// GET that must answer 200; returns the body.
    #[track_caller]
    pub fn get_ok(&self, path_or_url: &str) -> Value {
        let (status, body) = self.get(path_or_url);
        assert_eq!(status, 200, "GET {path_or_url} answered {status}: {body}");
        body
    }
}

/// The href of `_links[rel]` (the first entry when it is an array).
#[track_caller]
pub fn href<'a>(body: &'a Value, rel: &str) -> &'a str {
    let link = &body["_links"][rel];
    let link = if link.is_array() { &link[0] } else { link };
    link["href"]
        .as_str()
        .unwrap_or_else(|| panic!("no link {rel} in {body}"))
}

/// Consumer and provider names used throughout.
pub const CONSUMER: &str = "ShopWeb";
pub const PROVIDER: &str = "OrderService";

/// Writes `pact` as `DIR/ShopWeb-OrderService.json` in a fresh directory
/// (the shape a consumer test run leaves behind) and returns the directory.
pub fn write_pact(dir: &Path, pact: &Value) -> String {
    std::fs::create_dir_all(dir).expect("pact dir");
    let file = dir.join(format!("{CONSUMER}-{PROVIDER}.json"));
    let text = serde_json::to_string_pretty(pact).expect("pact JSON");
    std::fs::write(&file, text).expect("write pact");
    dir.to_string_lossy().into_owned()
}

/// A Pact V3 file the provider honours: two HTTP interactions with
/// provider states (one with params), one with a matching rule.
pub fn passing_v3_pact() -> Value {
    json!({
        "consumer": { "name": CONSUMER },
        "provider": { "name": PROVIDER },
        "interactions": [
            {
                "description": "a request for order 1",
                "providerStates": [{ "name": "order 1 exists", "params": { "id": 1 } }],
                "request": { "method": "GET", "path": "/orders/1",
                             "headers": { "Accept": "application/json" } },
                "response": {
                    "status": 200,
                    "headers": { "Content-Type": "application/json" },
                    "body": { "id": 1, "status": "shipped" },
                    "matchingRules": { "body": { "$.status": { "matchers": [{ "match": "type" }] } } }
                }
            },
            {
                "description": "a request for a missing order",
                "providerStates": [{ "name": "order 99 does not exist" }],
                "request": { "method": "GET", "path": "/orders/99" },
                "response": { "status": 404 }
            }
        ],
        "metadata": { "pactSpecification": { "version": "3.0.0" } }
    })
}

/// A Pact V4 file the provider breaks: it expects a `total` the order
/// service does not return.
pub fn failing_v4_pact() -> Value {
    json!({
        "consumer": { "name": CONSUMER },
        "provider": { "name": PROVIDER },
        "interactions": [
            {
                "type": "Synchronous/HTTP",
                "description": "a request for order 1 with its total",
                "providerStates": [{ "name": "order 1 exists", "params": { "id": 1 } }],
                "request": { "method": "GET", "path": "/orders/1",
                             "headers": { "Accept": ["application/json"] } },
                "response": {
                    "status": 200,
                    "headers": { "Content-Type": ["application/json"] },
                    "body": { "contentType": "application/json", "encoded": false,
                              "content": { "id": 1, "status": "shipped", "total": 42 } }
                }
            }
        ],
        "metadata": { "pactSpecification": { "version": "4.0" } }
    })
}
