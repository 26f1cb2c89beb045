//! TestApp: a real broker on an ephemeral loopback port, on a fresh SQLite
//! file, or in a fresh schema of the PostgreSQL named by
//! `ACCORD_TEST_DATABASE_URL`. `each_backend` runs one test body on both.

#![allow(dead_code)] // helpers for every test module; not each uses all of them
use std::sync::mpsc;
use std::thread::JoinHandle;

use accord_broker::BrokerConfig;
use accord_broker::db;
use diesel::connection::SimpleConnection;
use serde_json::Value;

/// Where a test's database lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestDb {
    Sqlite,
    Postgres,
}

/// The backends to run on: SQLite always; PostgreSQL when
/// `ACCORD_TEST_DATABASE_URL` is set. Under `CI=true` a missing PostgreSQL
/// is a failure, elsewhere a printed skip.
pub fn backends() -> Vec<TestDb> {
    let mut all = vec![TestDb::Sqlite];
    if std::env::var("ACCORD_TEST_DATABASE_URL").is_ok_and(|v| !v.is_empty()) {
        all.push(TestDb::Postgres);
    } else if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true but ACCORD_TEST_DATABASE_URL is not set: the PostgreSQL half cannot be skipped in CI"
        );
    } else {
        eprintln!("skipped PostgreSQL: ACCORD_TEST_DATABASE_URL is not set");
    }
    all
}

/// Runs `body` against a fresh broker on every available backend.
pub fn each_backend(body: impl Fn(&TestApp)) {
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        body(&app);
    }
}

/// A database made for one test and dropped after it.
pub struct TestDatabase {
    pub url: String,
    cleanup: Option<(String, String)>,
    dir: Option<std::path::PathBuf>,
}

impl TestDatabase {
    /// A fresh empty database on `db`.
    pub fn create(db: TestDb) -> TestDatabase {
        let id = uuid::Uuid::new_v4().simple().to_string();
        match db {
            TestDb::Sqlite => {
                let dir = std::env::temp_dir().join(format!("accord-test-{id}"));
                std::fs::create_dir_all(&dir).expect("temp dir");
                let url = dir.join("broker.db").to_string_lossy().into_owned();
                TestDatabase {
                    url,
                    cleanup: None,
                    dir: Some(dir),
                }
            }
            TestDb::Postgres => {
                let admin =
                    std::env::var("ACCORD_TEST_DATABASE_URL").expect("ACCORD_TEST_DATABASE_URL");
                let schema = format!("t_{id}");
                let pool = db::connect(&admin, 1).expect("connect to ACCORD_TEST_DATABASE_URL");
                let mut conn = pool.get().expect("connection");
                conn.batch_execute(&format!("CREATE SCHEMA {schema}"))
                    .expect("create schema");
                let sep = if admin.contains('?') { '&' } else { '?' };
                let url = format!("{admin}{sep}options=-csearch_path%3D{schema}");
                TestDatabase {
                    url,
                    cleanup: Some((admin, schema)),
                    dir: None,
                }
            }
        }
    }
}

impl TestDatabase {
    /// Another handle on the same database that cleans nothing up (for a
    /// second broker process sharing it).
    pub fn shared(&self) -> TestDatabase {
        TestDatabase {
            url: self.url.clone(),
            cleanup: None,
            dir: None,
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Some((admin, schema)) = &self.cleanup
            && let Ok(pool) = db::connect(admin, 1)
            && let Ok(mut conn) = pool.get()
        {
            let _ = conn.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"));
        }
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A running broker and a blocking HTTP client for it.
pub struct TestApp {
    pub url: String,
    pub db: TestDb,
    pub database: TestDatabase,
    handle: actix_web::dev::ServerHandle,
    thread: Option<JoinHandle<()>>,
    client: reqwest::blocking::Client,
}

/// A response: status, headers and the body parsed as JSON (Null if it is not JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Reply {
    /// A response header's value ("" when absent).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

impl TestApp {
    /// Starts a broker on `db`; `tweak` may change the config first.
    pub fn start(db: TestDb, tweak: impl FnOnce(&mut BrokerConfig)) -> TestApp {
        let database = TestDatabase::create(db);
        let mut config = BrokerConfig::new(database.url.clone());
        config.bind = "127.0.0.1:0".into();
        config.workers = Some(2);
        config.pool_size = 4;
        tweak(&mut config);
        Self::serve(db, database, config)
    }

    /// Starts a broker with `config` on an existing database.
    pub fn serve(db: TestDb, database: TestDatabase, config: BrokerConfig) -> TestApp {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                match accord_broker::start(config) {
                    Ok(running) => {
                        let _ = tx.send(Ok((running.addr, running.server.handle())));
                        let _ = running.server.await;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(format!("{e}: {:?}", std::error::Error::source(&e))));
                    }
                }
            });
        });
        let (addr, handle) = rx.recv().expect("broker thread").expect("broker starts");
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::blocking::Client::builder()
            .build()
            .expect("http client");
        TestApp {
            url: format!("http://{addr}"),
            db,
            database,
            handle,
            thread: Some(thread),
            client,
        }
    }

    /// The HTTP client (for requests the helpers below do not cover).
    pub fn client(&self) -> &reqwest::blocking::Client {
        &self.client
    }

    /// Sends `request` and reads the reply.
    pub fn send(&self, request: reqwest::blocking::RequestBuilder) -> Reply {
        let response = request.send().expect("request reaches the broker");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let headers = response.headers().clone();
        let text = response.text().expect("body");
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            content_type,
            headers,
            text,
            json,
        }
    }

    /// `GET path` (path starts with `/`).
    pub fn get(&self, path: &str) -> Reply {
        self.send(
            self.client
                .get(format!("{}{path}", self.url))
                .header("Accept", "application/hal+json"),
        )
    }

    /// `GET path` as a browser asks (`Accept: text/html,…`): a page.
    pub fn get_page(&self, path: &str) -> Reply {
        self.send(self.client.get(format!("{}{path}", self.url)).header(
            "Accept",
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        ))
    }

    /// `GET path` as Accord's client asks (`X-Accord-Client`): whole contracts.
    pub fn get_as_accord(&self, path: &str) -> Reply {
        self.send(
            self.client
                .get(format!("{}{path}", self.url))
                .header("Accept", "application/hal+json")
                .header("X-Accord-Client", "test"),
        )
    }

    /// `POST path` with a JSON body as Accord's client sends it.
    pub fn post_as_accord(&self, path: &str, body: &Value) -> Reply {
        self.send(
            self.client
                .post(format!("{}{path}", self.url))
                .header("Content-Type", "application/json")
                .header("Accept", "application/hal+json")
                .header("X-Accord-Client", "test")
                .body(body.to_string()),
        )
    }

    /// `method path` with a JSON body.
    pub fn json(&self, method: &str, path: &str, body: &Value) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        self.send(
            self.client
                .request(method, format!("{}{path}", self.url))
                .header("Content-Type", "application/json")
                .header("Accept", "application/hal+json")
                .body(body.to_string()),
        )
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.json("POST", path, body)
    }

    /// `PUT path` with a JSON body.
    pub fn put(&self, path: &str, body: &Value) -> Reply {
        self.json("PUT", path, body)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        let _ = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(handle.stop(false));
        })
        .join();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
