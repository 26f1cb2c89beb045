//! Helpers that write the inline matcher syntax as JSON, for builder values:
//! `m::like("plan-1")` is `{"$like": "plan-1"}`.

use serde_json::{Value, json};

/// Same type as the example.
pub fn like(example: impl Into<Value>) -> Value {
    json!({"$like": example.into()})
}

/// An array of items like `item`, at least `min` of them.
pub fn each_like(item: impl Into<Value>, min: u64) -> Value {
    json!({"$eachLike": item.into(), "min": min})
}

/// A string matching `regex`.
pub fn regex(regex: &str, example: &str) -> Value {
    json!({"$regex": regex, "example": example})
}

/// One of the values.
pub fn one_of<V: Into<Value>>(values: impl IntoIterator<Item = V>) -> Value {
    json!({"$enum": values.into_iter().map(Into::into).collect::<Vec<Value>>()})
}

/// A date-time in `format` (Java `DateTimeFormatter` patterns, as Pact).
pub fn datetime(format: &str, example: &str) -> Value {
    json!({"$datetime": format, "example": example})
}

/// An integer.
pub fn integer(example: i64) -> Value {
    json!({"$integer": example})
}

/// A value the provider state returns (`${name}`), with an example.
pub fn from_state(expression: &str, example: impl Into<Value>) -> Value {
    json!({"$fromState": expression, "example": example.into()})
}

/// A value the provider state returns (`${name}`) that the provider must
/// answer exactly (`equal: true`: an `equality` rule), with an example.
pub fn from_state_equal(expression: &str, example: impl Into<Value>) -> Value {
    json!({"$fromState": expression, "example": example.into(), "equal": true})
}

/// A UUID, generated at replay time.
pub fn uuid() -> Value {
    json!({"$uuid": null})
}

/// A string containing `text`.
pub fn includes(text: &str) -> Value {
    json!({"$include": text})
}
