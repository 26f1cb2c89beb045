//! `accord verify … -- COMMAND ARGS…`: the provider under test started by
//! the verifier, with one environment variable per stand-in
//! (`ACCORD_DEPENDENCY_URL_<NAME>`, …), waited for until its base URL
//! answers, and stopped after the run (SIGTERM, then SIGKILL after a
//! grace).

use std::process::{Child, Command};
use std::time::{Duration, Instant};

use anyhow::bail;

/// How long a provider has to stop after SIGTERM before it is killed.
const GRACE: Duration = Duration::from_secs(3);

/// A provider the verifier started; stopped when dropped.
pub struct Provider {
    child: Child,
    shown: String,
}

impl Provider {
    /// Starts `command` with `env` and waits until `base_url` answers any
    /// HTTP response. A command that cannot start, exits first, or does
    /// not answer within `timeout` is an error naming it.
    pub fn start(
        command: &[String],
        env: &[(String, String)],
        base_url: &str,
        timeout: Duration,
    ) -> anyhow::Result<Provider> {
        let Some((program, args)) = command.split_first() else {
            bail!("-- names no provider command");
        };
        let shown = command.join(" ");
        let child = Command::new(program)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .spawn()
            .map_err(|e| anyhow::anyhow!("cannot start the provider command `{shown}`: {e}"))?;
        let mut provider = Provider { child, shown };
        provider.wait_until_answering(base_url, timeout)?;
        Ok(provider)
    }

    fn wait_until_answering(&mut self, base_url: &str, timeout: Duration) -> anyhow::Result<()> {
        // reqwest is built without a default TLS provider (as in client.rs)
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(1))
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!(
                    "the provider command `{}` exited ({status}) before {base_url} answered",
                    self.shown
                );
            }
            if client.get(base_url).send().is_ok() {
                return Ok(());
            }
            if start.elapsed() > timeout {
                bail!(
                    "the provider command `{}` did not answer at {base_url} within {} s (--provider-start-timeout)",
                    self.shown,
                    timeout.as_secs()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        // SIGTERM through kill(1): no unsafe code and no libc binding here
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let start = Instant::now();
        while start.elapsed() < GRACE {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
