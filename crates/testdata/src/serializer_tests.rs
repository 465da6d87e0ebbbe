//! Reading html5lib's serializer tests
//! (`testdata/html5lib/serializer/*.test`).
//!
//! Each file is JSON: `{"tests": [{"description", "input", "expected",
//! "options"?, "xhtml"?}]}`. `input` is a list of tokens in html5lib's
//! tree-walker notation (`["StartTag", namespace, name, attributes]`,
//! `["EndTag", namespace, name]`, `["EmptyTag", name, attributes]`,
//! `["Characters", text]`, `["Comment", text]`, `["Doctype", name, …]`);
//! `options` are html5lib-python serializer options. Both are kept as JSON
//! values: their interpretation belongs to the harness that runs them.

use serde::Deserialize;
use serde_json::Value;

/// One html5lib serializer test.
#[derive(Clone, Debug, PartialEq)]
pub struct SerializerTest {
    /// The file's name, e.g. `"optionaltags.test"`.
    pub file: String,
    /// The 0-based position of the test in its file's `tests` list.
    pub index: usize,
    /// What the test checks, in words.
    pub description: String,
    /// The token list to serialize, as written (a JSON array).
    pub input: Value,
    /// The accepted serializations of the HTML syntax (any one may match).
    pub expected: Vec<String>,
    /// The serializer options the test sets (a JSON object), if any.
    pub options: Option<Value>,
    /// The accepted serializations in XHTML mode, if the test gives them.
    pub xhtml: Option<Vec<String>>,
}

impl SerializerTest {
    /// `file#index`, the test's name in reports.
    pub fn id(&self) -> String {
        format!("{}#{}", self.file, self.index)
    }
}

/// The folder of the suite, relative to the shared folder.
const SUITE_DIR: &str = "testdata/html5lib/serializer";

/// A test as the JSON spells it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    description: String,
    input: Value,
    expected: Vec<String>,
    #[serde(default)]
    options: Option<Value>,
    #[serde(default)]
    xhtml: Option<Vec<String>>,
}

/// A file as the JSON spells it.
#[derive(Deserialize)]
struct RawFile {
    tests: Vec<RawTest>,
}

/// Every test of every `.test` file of the suite, files in sorted order,
/// tests in file order.
///
/// # Panics
/// When the suite is missing or a file is not in the expected shape.
pub fn serializer_tests() -> Vec<SerializerTest> {
    let mut out = Vec::new();
    for p in crate::files_with_suffix(SUITE_DIR, ".test") {
        let file = p
            .file_name()
            .expect("a listed file has a name")
            .to_string_lossy()
            .into_owned();
        let text = crate::read_to_string(&format!("{SUITE_DIR}/{file}"));
        let raw: RawFile = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{file}: not a serializer test file: {e}"));
        out.extend(
            raw.tests
                .into_iter()
                .enumerate()
                .map(|(index, t)| SerializerTest {
                    file: file.clone(),
                    index,
                    description: t.description,
                    input: t.input,
                    expected: t.expected,
                    options: t.options,
                    xhtml: t.xhtml,
                }),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many tests each file holds, counted from the JSON without the
    /// typed reader.
    fn counts_in_files() -> Vec<(String, usize)> {
        crate::files_with_suffix(SUITE_DIR, ".test")
            .iter()
            .map(|p| {
                let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, v["tests"].as_array().unwrap().len())
            })
            .collect()
    }

    #[test]
    fn reads_every_test_of_every_file() {
        let tests = serializer_tests();
        let expected = counts_in_files();
        assert_eq!(expected.len(), 5, "{expected:?}");
        for (file, count) in &expected {
            let got = tests.iter().filter(|t| &t.file == file).count();
            assert_eq!(got, *count, "{file}");
        }
        assert_eq!(tests.len(), expected.iter().map(|(_, n)| n).sum::<usize>());
        for t in &tests {
            assert!(t.input.is_array(), "{}", t.id());
            assert!(!t.expected.is_empty(), "{}", t.id());
            if let Some(o) = &t.options {
                assert!(o.is_object(), "{}", t.id());
            }
        }
    }

    #[test]
    fn keeps_options_and_xhtml_variants() {
        let tests = serializer_tests();
        let t = tests
            .iter()
            .find(|t| {
                t.file == "core.test" && t.description == "proper attribute value non-quoting"
            })
            .expect("core.test has the non-quoting case");
        assert_eq!(t.expected, vec!["<span title=foo>".to_owned()]);
        assert_eq!(t.xhtml, Some(vec!["<span title=\"foo\">".to_owned()]));
        assert_eq!(t.input[0][0], "StartTag");
        assert!(tests.iter().filter(|t| t.options.is_some()).count() > 10);
        assert!(tests.iter().any(|t| t.file == "optionaltags.test"));
    }
}
