//! The JSON tree of a WAT record, kept in insertion order, and its
//! serialization.
//!
//! Common Crawl's generator builds its JSON with an insertion-ordered
//! object type and *accumulates* a key given twice: the second value turns
//! the first into an array (`MetaData.accumulate` in ia-web-commons), which
//! is how a repeated HTTP or WARC header becomes `"Set-Cookie":["…","…"]`.
//! [`Object::accumulate`] does the same; [`Object::put`] replaces.
//!
//! Invariant: [`Value::write`] gives RFC 8259 JSON for any tree — every
//! string is escaped (quotes, backslashes, control characters), so no
//! header value or page text can break the record's JSON.

use std::collections::HashMap;
use std::fmt::Write as _;

/// A JSON value. Numbers are not needed: the WAT writes them as strings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A string.
    Str(String),
    /// `true` or `false`.
    Bool(bool),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Object),
}

/// A JSON object whose keys keep the order they were first given.
///
/// Keys are found by a scan while the object is small, through a hash
/// index once it has 16 keys: a record with a million header
/// lines costs a million lookups, not a million scans.
#[derive(Debug, Clone, Default)]
pub struct Object {
    entries: Vec<(String, Value)>,
    /// Each key's place in `entries`, once there are [`INDEXED`] keys.
    index: Option<HashMap<String, usize>>,
}

/// The number of keys from which an [`Object`] keeps a hash index.
const INDEXED: usize = 16;

impl PartialEq for Object {
    fn eq(&self, other: &Object) -> bool {
        self.entries == other.entries
    }
}

impl Eq for Object {}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// Whether the object has no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The place of `key` in the entries.
    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|(k, _)| k == key),
        }
    }

    /// Adds a new key at the end.
    fn push(&mut self, key: &str, value: Value) {
        if let Some(index) = &mut self.index {
            index.insert(key.to_owned(), self.entries.len());
        }
        self.entries.push((key.to_owned(), value));
        if self.index.is_none() && self.entries.len() >= INDEXED {
            let index = self
                .entries
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.clone(), i))
                .collect();
            self.index = Some(index);
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// Sets `key` to `value`, in the place the key first had.
    pub fn put(&mut self, key: &str, value: impl Into<Value>) {
        let value = value.into();
        match self.position(key) {
            Some(i) => self.entries[i].1 = value,
            None => self.push(key, value),
        }
    }

    /// Sets `key` to `value` when `value` is some.
    pub fn put_opt(&mut self, key: &str, value: Option<impl Into<Value>>) {
        if let Some(v) = value {
            self.put(key, v);
        }
    }

    /// Adds `value` under `key`: a new key is set; a key given before
    /// becomes an array of its values, in order.
    pub fn accumulate(&mut self, key: &str, value: impl Into<Value>) {
        let value = value.into();
        let Some(i) = self.position(key) else {
            return self.push(key, value);
        };
        match &mut self.entries[i].1 {
            Value::Array(values) => values.push(value),
            old => {
                let first = std::mem::replace(old, Value::Bool(false));
                *old = Value::Array(vec![first, value]);
            }
        }
    }

    /// Removes `key`.
    pub fn remove(&mut self, key: &str) {
        self.entries.retain(|(k, _)| k != key);
        if self.index.is_some() {
            self.index = Some(
                self.entries
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (k.clone(), i))
                    .collect(),
            );
        }
    }

    /// Appends `value` to the array at `key` (made when missing).
    pub fn push_to(&mut self, key: &str, value: impl Into<Value>) {
        let value = value.into();
        match self.position(key) {
            Some(i) => match &mut self.entries[i].1 {
                Value::Array(values) => values.push(value),
                other => *other = Value::Array(vec![value]),
            },
            None => self.push(key, Value::Array(vec![value])),
        }
    }

    /// The entries, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.to_owned())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<Object> for Value {
    fn from(o: Object) -> Value {
        Value::Object(o)
    }
}

impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Value {
        Value::Array(a)
    }
}

impl Value {
    /// Appends the value's JSON (no whitespace) to `out`.
    pub fn write(&self, out: &mut String) {
        match self {
            Value::Str(s) => write_str(s, out),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Array(values) => {
                out.push('[');
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Value::Object(o) => o.write(out),
        }
    }
}

impl Object {
    /// Appends the object's JSON (no whitespace) to `out`.
    pub fn write(&self, out: &mut String) {
        out.push('{');
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_str(k, out);
            out.push(':');
            v.write(out);
        }
        out.push('}');
    }
}

/// `s` as a JSON string: `"` and `\` escaped, control characters as
/// their short escapes or `\u00XX`; everything else as is (UTF-8).
fn write_str(s: &str, out: &mut String) {
    out.push('"');
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        out.push_str(&s[from..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        from = i + 1;
    }
    out.push_str(&s[from..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accumulate_turns_a_repeated_key_into_an_array() {
        let mut o = Object::new();
        o.accumulate("Set-Cookie", "a=1");
        o.accumulate("Server", "x");
        o.accumulate("Set-Cookie", "b=2");
        o.accumulate("Set-Cookie", "c=3");
        let mut s = String::new();
        o.write(&mut s);
        assert_eq!(s, r#"{"Set-Cookie":["a=1","b=2","c=3"],"Server":"x"}"#);
    }

    #[test]
    fn strings_are_escaped() {
        let mut s = String::new();
        Value::from("a\"b\\c\nd\u{1}e\u{7f}é").write(&mut s);
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001e\u{7f}é\"");
        let back: String = serde_json::from_str(&s).unwrap();
        assert_eq!(back, "a\"b\\c\nd\u{1}e\u{7f}é");
    }

    #[test]
    fn many_keys_are_indexed_and_keep_their_order() {
        let mut o = Object::new();
        for i in 0..100_000 {
            o.accumulate(&format!("X-{}", i % 50_000), i.to_string());
        }
        assert_eq!(o.iter().count(), 50_000);
        assert_eq!(o.iter().next().unwrap().0, "X-0");
        assert_eq!(
            o.get("X-7"),
            Some(&Value::Array(vec!["7".into(), "50007".into()]))
        );
        o.remove("X-0");
        o.put("X-1", "one");
        assert_eq!(o.iter().next(), Some(("X-1", &Value::from("one"))));
        assert_eq!(o.get("X-0"), None);
    }

    #[test]
    fn put_keeps_the_first_place() {
        let mut o = Object::new();
        o.put("a", "1");
        o.put("b", true);
        o.put("a", "2");
        o.push_to("c", "x");
        o.push_to("c", "y");
        let mut s = String::new();
        o.write(&mut s);
        assert_eq!(s, r#"{"a":"2","b":true,"c":["x","y"]}"#);
    }
}
