//! Typed access to JSON attributes with errors that name the JSON path.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::DslError;
use crate::objects::Objects;

/// Where a value sits: the document and the JSON path in it.
#[derive(Debug, Clone, Copy)]
pub(super) struct At<'a> {
    pub origin: &'a str,
    pub path: &'a str,
}

impl At<'_> {
    /// An error at `self.path` + `suffix`.
    pub fn invalid(&self, suffix: &str, message: impl Into<String>) -> DslError {
        DslError::invalid(self.origin, format!("{}{suffix}", self.path), message)
    }

    /// An "expected …, found …" error for the attribute `key`.
    pub fn expected(&self, key: &str, what: &str, v: &Value) -> DslError {
        self.invalid(
            &format!(".{key}"),
            format!("expected {what}, found {}", found(v)),
        )
    }

    /// The value as an object.
    pub fn object<'v>(&self, v: &'v Value) -> Result<&'v Map<String, Value>, DslError> {
        v.as_object()
            .ok_or_else(|| self.invalid("", format!("expected an object, found {}", found(v))))
    }

    /// An optional string attribute.
    pub fn opt_str<'v>(
        &self,
        obj: &'v impl Fields,
        key: &str,
    ) -> Result<Option<&'v str>, DslError> {
        match obj.field(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.expected(key, "a string", v)),
        }
    }

    /// An optional boolean attribute.
    pub fn opt_bool(&self, obj: &impl Fields, key: &str) -> Result<Option<bool>, DslError> {
        match obj.field(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.expected(key, "true or false", v)),
        }
    }

    /// Deserialises `v` into a typed model, naming the path of a wrong field.
    /// A struct is read only from an object ([`Objects`]).
    pub fn typed<T: DeserializeOwned>(&self, v: Value) -> Result<T, DslError> {
        self.typed_ref(&v)
    }

    /// [`At::typed`] of a borrowed value (nothing copied first).
    pub fn typed_ref<T: DeserializeOwned>(&self, v: &Value) -> Result<T, DslError> {
        serde_path_to_error::deserialize(Objects(v)).map_err(|e| self.shape(e))
    }

    /// A deserialisation error at its path below this one.
    fn shape(&self, e: serde_path_to_error::Error<serde_json::Error>) -> DslError {
        let inner = e.path().to_string();
        let path = match inner.as_str() {
            "." | "" => self.path.to_string(),
            p if p.starts_with('[') => format!("{}{p}", self.path),
            p => format!("{}.{p}", self.path),
        };
        DslError::Shape {
            origin: self.origin.to_string(),
            path,
            source: e.into_inner(),
        }
    }
}

/// An object's attributes as written: a JSON object read into a `Value`,
/// or a typed one (`read_typed`). `field` is `None` for an absent
/// attribute and `Some(Value::Null)` for a `null` one.
pub(crate) trait Fields {
    fn field(&self, key: &str) -> Option<&Value>;
    /// The attributes not in `known`, in order.
    fn unknown(&self, known: &[&str]) -> Map<String, Value>;
    /// True when an attribute in `keys` is present.
    fn has_any(&self, keys: &[&str]) -> bool;
}

impl Fields for Map<String, Value> {
    fn field(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }

    fn unknown(&self, known: &[&str]) -> Map<String, Value> {
        extra(self, known)
    }

    fn has_any(&self, keys: &[&str]) -> bool {
        self.keys().any(|k| keys.contains(&k.as_str()))
    }
}

/// A short description of a value for error messages: scalars as written
/// (long strings cut), containers by kind.
pub(super) fn found(v: &Value) -> String {
    match v {
        Value::Object(_) => "an object".into(),
        Value::Array(_) => "an array".into(),
        Value::String(s) if s.chars().count() > 40 => {
            let cut: String = s.chars().take(40).collect();
            format!("\"{cut}…\"")
        }
        other => other.to_string(),
    }
}

/// The attributes of `obj` not named in `known`.
pub(super) fn extra(obj: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Removes `known` attributes from an already collected `extra` map.
pub(super) fn without(mut map: Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    map.retain(|k, _| !known.contains(&k.as_str()));
    map
}
