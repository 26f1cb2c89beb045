//! A2A v1.0's HTTP+JSON binding as data: which operation a route names
//! and the params it carries (route segments, query and body become the
//! params of the JSON-RPC method of the same operation). Servers built on
//! Accord's model — the reference agent and the consumer's mock — route
//! with it; the query string is parsed by the caller.

use serde_json::{Map, Value, json};

use super::a2a_flow::A2aOperation;

/// Why a route names no operation, or its params cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestRouteError {
    /// No operation has this method and path.
    NotFound,
    /// The body is not JSON (the parser's message).
    Parse(String),
    /// The body or a query value has the wrong shape.
    InvalidParams(String),
}

/// The operation of `method` on `tail` (the path under the interface's
/// URL, with or without a leading `/`), with its params.
pub fn rest_operation(
    method: &str,
    tail: &str,
    query: &[(String, String)],
    body: &[u8],
) -> Result<(A2aOperation, Value), RestRouteError> {
    use A2aOperation::*;
    let segments: Vec<&str> = tail.trim_matches('/').split('/').collect();
    let with = |mut params: Value, key: &str, value: &str| {
        params[key] = json!(value);
        params
    };
    match (method, segments.as_slice()) {
        ("POST", ["message:send"]) => Ok((SendMessage, body_json(body)?)),
        ("POST", ["message:stream"]) => Ok((SendStreamingMessage, body_json(body)?)),
        ("GET", ["tasks"]) => Ok((ListTasks, query_params(query)?)),
        ("GET", ["extendedAgentCard"]) => Ok((GetExtendedAgentCard, json!({}))),
        (verb, ["tasks", last]) => match (verb, last.rsplit_once(':')) {
            ("POST", Some((id, "cancel"))) => Ok((CancelTask, with(body_json(body)?, "id", id))),
            ("GET" | "POST", Some((id, "subscribe"))) => Ok((SubscribeToTask, json!({"id": id}))),
            ("GET", None) => Ok((GetTask, with(query_params(query)?, "id", last))),
            _ => Err(RestRouteError::NotFound),
        },
        ("POST", ["tasks", id, "pushNotificationConfigs"]) => Ok((
            CreateTaskPushNotificationConfig,
            with(body_json(body)?, "taskId", id),
        )),
        ("GET", ["tasks", id, "pushNotificationConfigs"]) => {
            Ok((ListTaskPushNotificationConfigs, json!({"taskId": id})))
        }
        ("GET", ["tasks", id, "pushNotificationConfigs", config]) => Ok((
            GetTaskPushNotificationConfig,
            json!({"taskId": id, "id": config}),
        )),
        ("DELETE", ["tasks", id, "pushNotificationConfigs", config]) => Ok((
            DeleteTaskPushNotificationConfig,
            json!({"taskId": id, "id": config}),
        )),
        _ => Err(RestRouteError::NotFound),
    }
}

/// A request body as a JSON object (an empty body is `{}`).
fn body_json(body: &[u8]) -> Result<Value, RestRouteError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    match serde_json::from_slice(body) {
        Ok(Value::Object(object)) => Ok(Value::Object(object)),
        Ok(_) => Err(RestRouteError::InvalidParams(
            "the body must be a JSON object".into(),
        )),
        Err(e) => Err(RestRouteError::Parse(e.to_string())),
    }
}

/// Query parameters as typed params (counts as numbers, flags as booleans).
fn query_params(query: &[(String, String)]) -> Result<Value, RestRouteError> {
    let mut params = Map::new();
    for (key, value) in query {
        let typed = match key.as_str() {
            "pageSize" | "historyLength" => json!(value.parse::<u64>().map_err(|_| {
                RestRouteError::InvalidParams(format!("'{key}' must be a non-negative integer"))
            })?),
            "includeArtifacts" => json!(value == "true"),
            _ => json!(value),
        };
        params.insert(key.clone(), typed);
    }
    Ok(Value::Object(params))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(method: &str, tail: &str) -> Result<(A2aOperation, Value), RestRouteError> {
        rest_operation(method, tail, &[], b"")
    }

    #[test]
    fn routes_map_to_their_operations() {
        use A2aOperation::*;
        assert_eq!(op("POST", "message:send").map(|o| o.0), Ok(SendMessage));
        assert_eq!(
            op("GET", "/tasks/t-1").map(|o| o.1["id"].clone()),
            Ok(json!("t-1"))
        );
        assert_eq!(op("POST", "tasks/t-1:cancel").map(|o| o.0), Ok(CancelTask));
        assert_eq!(
            op("GET", "tasks/t-1:subscribe").map(|o| o.0),
            Ok(SubscribeToTask)
        );
        let get = op("GET", "tasks/t-1/pushNotificationConfigs/c-1");
        assert_eq!(get.map(|o| o.1), Ok(json!({"taskId": "t-1", "id": "c-1"})));
        assert_eq!(op("DELETE", "tasks/t-1"), Err(RestRouteError::NotFound));
        assert!(matches!(
            rest_operation("POST", "message:send", &[], b"{oops"),
            Err(RestRouteError::Parse(_))
        ));
    }

    #[test]
    fn query_values_are_typed() {
        let query = [
            ("pageSize".to_owned(), "2".to_owned()),
            ("includeArtifacts".to_owned(), "true".to_owned()),
            ("contextId".to_owned(), "c".to_owned()),
        ];
        let params = query_params(&query).expect("valid query");
        assert_eq!(
            params,
            json!({"pageSize": 2, "includeArtifacts": true, "contextId": "c"})
        );
        let bad = [("historyLength".to_owned(), "x".to_owned())];
        assert!(query_params(&bad).is_err());
    }
}
