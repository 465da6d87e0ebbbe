//! A token in html5lib's tokenizer-test notation, shared by the html5lib
//! harness (tests/html5lib_tokenizer.rs) and the `tokens` example.

use serde_json::{Map, Value, json};
use spinneret_html::Token;

/// A token in html5lib's notation.
pub fn notation(token: &Token<'_>) -> Value {
    match token {
        Token::Doctype(d) => json!(["DOCTYPE", d.name, d.public_id, d.system_id, !d.force_quirks]),
        Token::StartTag(t) => {
            let attrs: Map<String, Value> = t
                .attrs
                .iter()
                .map(|a| (a.name.as_str().to_owned(), Value::from(a.value)))
                .collect();
            if t.self_closing {
                json!(["StartTag", t.name.as_str(), attrs, true])
            } else {
                json!(["StartTag", t.name.as_str(), attrs])
            }
        }
        Token::EndTag(t) => json!(["EndTag", t.name.as_str()]),
        Token::Comment(c) => json!(["Comment", c]),
        Token::Text(t) => json!(["Character", t]),
    }
}
