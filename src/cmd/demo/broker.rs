//! The demo's broker: `accord serve`'s broker on a fresh SQLite database
//! in a temporary directory, served from a thread of its own, and the
//! Ctrl-C (or SIGTERM) listener that stops the demo.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::mpsc;
use std::thread::JoinHandle;

use accord_broker::{BrokerConfig, StartError};
use actix_web::dev::ServerHandle;
use anyhow::{Context, bail};

/// A broker serving on loopback. [`DemoBroker::stop`] (or dropping it)
/// stops it and removes its database.
#[derive(Debug)]
pub struct DemoBroker {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    /// The SQLite file.
    pub database: PathBuf,
    handle: ServerHandle,
    thread: Option<JoinHandle<()>>,
    dir: Option<tempfile::TempDir>,
}

impl DemoBroker {
    /// Starts a broker on `127.0.0.1:port` (0: a free port) over a new
    /// database in a temporary directory.
    pub fn start(port: u16) -> anyhow::Result<DemoBroker> {
        let dir = tempfile::Builder::new()
            .prefix("accord-demo-")
            .tempdir()
            .context("cannot create a temporary directory for the demo's database")?;
        let database = dir.path().join("accord.db");
        let mut config = BrokerConfig::new(database.display().to_string());
        config.bind = format!("127.0.0.1:{port}");
        config.workers = Some(2);
        config.pool_size = 4;
        let (thread, started) = serve_on_a_thread(config)?;
        let (addr, handle) = match started {
            Ok(started) => started,
            Err(err @ StartError::Bind { .. }) if port != 0 => {
                return Err(anyhow::Error::new(err).context(format!(
                    "port {port} is taken (another broker?): pass --port 0 to pick a free one"
                )));
            }
            Err(err) => return Err(anyhow::Error::new(err).context("cannot start the broker")),
        };
        Ok(DemoBroker {
            url: format!("http://{addr}"),
            database,
            handle,
            thread: Some(thread),
            dir: Some(dir),
        })
    }

    /// Stops the broker (a page being loaded is cut short: a browser's
    /// idle connections would keep a graceful stop waiting) and removes its
    /// database.
    pub fn stop(mut self) -> anyhow::Result<()> {
        self.shut_down();
        match self.dir.take() {
            Some(dir) => dir
                .close()
                .context("cannot remove the demo's temporary directory"),
            None => Ok(()),
        }
    }

    fn shut_down(&mut self) {
        let handle = self.handle.clone();
        let stopper = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(handle.stop(false));
        });
        let _ = stopper.join();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for DemoBroker {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.shut_down();
        }
        // the TempDir removes the database when it drops
    }
}

/// What [`accord_broker::start`] answered on the thread that serves.
type Started = Result<(SocketAddr, ServerHandle), StartError>;

/// Starts the broker on a thread of its own, as `accord serve` runs it;
/// the thread and how the start went.
fn serve_on_a_thread(config: BrokerConfig) -> anyhow::Result<(JoinHandle<()>, Started)> {
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            match accord_broker::start(config) {
                Ok(running) => {
                    let _ = tx.send(Ok((running.addr, running.server.handle())));
                    let _ = running.server.await;
                }
                Err(err) => drop(tx.send(Err(err))),
            }
        });
    });
    let started = rx
        .recv()
        .context("the broker's thread ended before it started")?;
    Ok((thread, started))
}

/// Ctrl-C or SIGTERM, listened for from the start so that the demo can
/// stop between steps and clean up.
#[derive(Debug)]
pub struct Interrupt {
    signals: mpsc::Receiver<&'static str>,
}

impl Interrupt {
    /// Starts listening.
    pub fn listen() -> Interrupt {
        let (tx, signals) = mpsc::channel();
        std::thread::spawn(move || {
            let signal =
                actix_web::rt::System::new().block_on(super::super::serve::shutdown_signal());
            let _ = tx.send(signal);
        });
        Interrupt { signals }
    }

    /// An error when a signal came: the demo stops there.
    pub fn check(&self) -> anyhow::Result<()> {
        match self.signals.try_recv() {
            Ok(signal) => bail!("interrupted ({signal})"),
            Err(_) => Ok(()),
        }
    }

    /// Waits for the signal; its name.
    pub fn wait(&self) -> &'static str {
        self.signals.recv().unwrap_or("the signal listener ended")
    }
}
