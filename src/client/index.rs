//! The broker's index (`GET /`): the HAL document every navigation starts
//! from. Whatever answers at the broker URL without one (a 404, an HTML
//! page, JSON without `_links`) is not an Accord or Pact broker, and is
//! said to be so rather than reported as a bare HTTP status.

use anyhow::bail;
use reqwest::Method;
use serde_json::Value;

use super::{BrokerClient, Reply, describe_error};

/// The index of a broker.
#[derive(Debug)]
pub struct Index {
    /// The HAL body (`_links` with the `pb:` relations).
    pub body: Value,
    /// The role of the credential sent, as Accord's broker names it
    /// (`X-Accord-Role`); `None` from a Pact Broker, or when no credential
    /// was sent.
    pub role: Option<String>,
}

impl BrokerClient {
    /// Reads the index; an answer that is not a broker's index is an error
    /// saying so.
    pub fn index(&self) -> anyhow::Result<Index> {
        let reply = self.send(Method::GET, "/", None)?;
        let url = self.url("/");
        match reply.status {
            200..=299 if reply.body.get("_links").is_some_and(Value::is_object) => Ok(Index {
                body: reply.body,
                role: reply.role,
            }),
            401 | 403 => bail!("GET {url} failed: {}", describe_error(&reply)),
            status if (500..600).contains(&status) => {
                bail!("GET {url} failed: {}", describe_error(&reply))
            }
            _ => bail!("{}", not_a_broker(&url, &reply)),
        }
    }
}

/// "GET … answered HTTP 404: this does not look like an Accord or Pact
/// broker …".
fn not_a_broker(url: &str, reply: &Reply) -> String {
    let answer = match reply.status {
        200..=299 if reply.body.is_null() => format!("HTTP {} without JSON", reply.status),
        200..=299 => format!("HTTP {} with JSON that has no _links", reply.status),
        status => format!("HTTP {status}"),
    };
    format!(
        "GET {url} answered {answer}: this does not look like an Accord or Pact broker \
         (a broker's index answers HAL JSON with _links to its pb: relations); \
         is --broker-url (or ACCORD_BROKER_URL) right?"
    )
}
