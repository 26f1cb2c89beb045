//! A `Deserializer` over a borrowed JSON value that reads a struct only
//! from an object.
//!
//! serde_json reads a struct from an array as well, its fields taken in
//! declaration order: `"repeat": [3]` would be `{"times": 3}`, and
//! `"temporal": [100]` a completion limit nobody wrote. A contract (or a
//! broker request's body) is written by hand as often as by a tool, so
//! such a shape is a mistake to name, not a form to accept. [`Objects`]
//! answers as serde_json's own reader does, except that a struct (at any
//! depth) must be an object.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde_json::{Error, Map, Value};

/// `value`, read as serde_json reads it, but a struct only from an object:
/// `T::deserialize(Objects(&value))`.
#[derive(Debug, Clone, Copy)]
pub struct Objects<'a>(pub &'a Value);

/// What `value` is, in the words of serde's "invalid type" errors.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (_, Some(i), _) => Unexpected::Signed(i),
            (_, _, Some(f)) => Unexpected::Float(f),
            _ => Unexpected::Other("number"),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

fn visit_object<'de, V: Visitor<'de>>(o: &'de Map<String, Value>, v: V) -> Result<V::Value, Error> {
    let mut access = Entries {
        iter: o.iter(),
        value: None,
    };
    let read = v.visit_map(&mut access)?;
    match access.iter.len() {
        0 => Ok(read),
        _ => Err(de::Error::invalid_length(o.len(), &"fewer elements in map")),
    }
}

fn visit_array<'de, V: Visitor<'de>>(a: &'de [Value], v: V) -> Result<V::Value, Error> {
    let mut access = Elements(a.iter());
    let read = v.visit_seq(&mut access)?;
    match access.0.len() {
        0 => Ok(read),
        _ => Err(de::Error::invalid_length(
            a.len(),
            &"fewer elements in array",
        )),
    }
}

/// The scalar readers, which have nothing nested: serde_json's own.
macro_rules! scalars {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            self.0.$method(v)
        }
    )*};
}

impl<'de> Deserializer<'de> for Objects<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(a) => visit_array(a, v),
            Value::Object(o) => visit_object(o, v),
            scalar => scalar.deserialize_any(v),
        }
    }

    scalars! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_unit_struct(name, v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(a) => visit_array(a, v),
            other => Err(de::Error::invalid_type(unexpected(other), &v)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(o) => visit_object(o, v),
            other => Err(de::Error::invalid_type(unexpected(other), &v)),
        }
    }

    /// The one difference from serde_json: an array is not a struct.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(o) => match o.iter().next() {
                Some((variant, value)) if o.len() == 1 => v.visit_enum(Variant { variant, value }),
                _ => Err(de::Error::invalid_value(
                    Unexpected::Map,
                    &"map with a single key",
                )),
            },
            // a unit variant by its name, or serde_json's error
            other => other.deserialize_enum(name, variants, v),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }
}

/// An object's entries, each value read by [`Objects`].
struct Entries<'de> {
    iter: serde_json::map::Iter<'de>,
    value: Option<&'de Value>,
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(BorrowedStrDeserializer::new(key))
                    .map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(Objects(value)),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An array's elements, each read by [`Objects`].
struct Elements<'de>(std::slice::Iter<'de, Value>);

impl<'de> SeqAccess<'de> for Elements<'de> {
    type Error = Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Error> {
        self.0
            .next()
            .map(|v| seed.deserialize(Objects(v)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// An enum written `{"variant": value}`.
struct Variant<'de> {
    variant: &'de str,
    value: &'de Value,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = Error;
    type Variant = Objects<'de>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Objects<'de>), Error> {
        let variant = seed.deserialize(BorrowedStrDeserializer::new(self.variant))?;
        Ok((variant, Objects(self.value)))
    }
}

impl<'de> VariantAccess<'de> for Objects<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            Value::Null => Ok(()),
            other => Err(de::Error::invalid_type(unexpected(other), &"unit variant")),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.deserialize_seq(v)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::accord::{Expectations, Repeat};
    use serde::Deserialize;
    use serde_json::json;

    fn read<T: for<'a> Deserialize<'a>>(v: &Value) -> Result<T, Error> {
        T::deserialize(Objects(v))
    }

    #[test]
    fn a_struct_written_as_an_array_is_refused_at_any_depth() {
        // serde_json's own reader takes the array field by field
        let top = json!([3]);
        assert!(serde_json::from_value::<Repeat>(top.clone()).is_ok());
        let e = read::<Repeat>(&top).expect_err("an array is not a Repeat");
        assert!(e.to_string().contains("invalid type: sequence"), "{e}");

        let nested = json!({"repeat": [3]});
        assert!(serde_json::from_value::<Expectations>(nested.clone()).is_ok());
        assert!(read::<Expectations>(&nested).is_err());
    }

    #[test]
    fn everything_else_reads_as_serde_json_reads_it() {
        let v = json!({
            "repeat": {"times": 2, "sideEffects": "each", "sameFields": ["$.id"]},
            "temporal": {"completionWithinMs": 50},
            "auth": {"principal": "alice", "credential": "expired",
                     "probes": [{"principal": "bob", "operations": ["GetTask"],
                                 "unknown": {"id": "x"}, "after": "TASK_STATE_WORKING"}]},
            "sideEffects": {"orders": 1, "audit": {"min": 0, "max": 2}},
            "negative": "cross_tenant",
            "retryable": null
        });
        let ours: Expectations = read(&v).expect("readable");
        let theirs: Expectations = serde_json::from_value(v).expect("readable");
        assert_eq!(ours, theirs);
        assert!(ours.repeat.is_some() && ours.auth.is_some());
    }

    #[test]
    fn wrong_scalars_and_shapes_get_serde_json_errors() {
        for (v, says) in [
            (
                json!({"times": "2"}),
                "invalid type: string \"2\", expected u32",
            ),
            (
                json!({"times": -1}),
                "invalid value: integer `-1`, expected u32",
            ),
            (json!("x"), "invalid type: string \"x\""),
            (
                json!({"times": 1, "sameFields": {"a": 1}}),
                "invalid type: map, expected a sequence",
            ),
        ] {
            let e = read::<Repeat>(&v).expect_err("refused");
            assert!(e.to_string().contains(says), "{v}: {e}");
        }
        let e = read::<Vec<u32>>(&json!([1, 2, "3"])).expect_err("refused");
        assert!(e.to_string().contains("expected u32"), "{e}");
        assert_eq!(read::<Option<u32>>(&json!(null)).expect("null"), None);
        assert_eq!(read::<(u8, u8)>(&json!([1, 2])).expect("a pair"), (1, 2));
        assert!(read::<(u8, u8)>(&json!([1, 2, 3])).is_err());
    }

    #[test]
    fn enums_read_by_name_or_as_a_single_key_map() {
        #[derive(Debug, PartialEq, Deserialize)]
        enum E {
            Unit,
            New(u8),
            Pair(u8, u8),
            Fields { a: u8 },
        }
        assert_eq!(read::<E>(&json!("Unit")).expect("unit"), E::Unit);
        assert_eq!(read::<E>(&json!({"Unit": null})).expect("unit"), E::Unit);
        assert_eq!(read::<E>(&json!({"New": 4})).expect("new"), E::New(4));
        assert_eq!(
            read::<E>(&json!({"Pair": [1, 2]})).expect("pair"),
            E::Pair(1, 2)
        );
        assert_eq!(
            read::<E>(&json!({"Fields": {"a": 1}})).expect("fields"),
            E::Fields { a: 1 }
        );
        assert!(
            read::<E>(&json!({"Fields": [1]})).is_err(),
            "a struct variant from an array"
        );
        assert!(read::<E>(&json!({"New": 1, "Unit": null})).is_err());
        assert!(read::<E>(&json!({"Unit": 1})).is_err());
        assert!(read::<E>(&json!("Other")).is_err());
    }

    #[test]
    fn values_and_maps_keep_their_order_and_content() {
        let v = json!({"b": [1, {"c": null}], "a": "x"});
        let back: Value = read(&v).expect("any value");
        assert_eq!(back, v);
        assert_eq!(
            back.as_object().expect("object").keys().collect::<Vec<_>>(),
            ["b", "a"]
        );
    }
}
