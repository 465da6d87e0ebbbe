//! Reading html5lib's tree-construction tests
//! (`testdata/html5lib/tree-construction/**/*.dat`), as the suite's
//! `README.md` describes them.
//!
//! A file is a sequence of tests; a test is a `#data` section (the input),
//! `#errors` (one line per expected parse error), optionally `#new-errors`,
//! `#document-fragment` (the context element), `#script-on` /
//! `#script-off`, and `#document` (the expected tree, one `| `-prefixed
//! line per node).
//!
//! # Where a test ends
//!
//! The README says tests are separated by a blank line, but the `#data`
//! and `#document` sections may themselves contain blank lines (a text node
//! with `"\n\n"` in it). The reliable boundary is a blank line *followed by
//! a line `#data`*, or the end of the file. Empty lines at the very end of a
//! file are dropped: a `#document` section always ends with a `| ` line or
//! the closing quote of a text node, never with an empty line.
//!
//! Everything else is kept byte-exact: inputs contain `\r`, U+0000 and other
//! characters a parser must see unchanged.

use std::path::Path;

/// One html5lib tree-construction test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeTest {
    /// The file, relative to `tree-construction/` and with `/` separators,
    /// e.g. `"tests1.dat"` or `"scripted/ark.dat"`.
    pub file: String,
    /// The 1-based line number of the test's `#data` line.
    pub line: usize,
    /// The input, without the newline that ends the section.
    pub data: String,
    /// How many parse errors the `#errors` section lists.
    pub errors: usize,
    /// How many more parse errors the `#new-errors` section lists (0 when
    /// absent).
    pub new_errors: usize,
    /// The fragment-parsing context element as written after
    /// `#document-fragment` (`"td"`, `"svg path"`, `"math mi"`); `None` for a
    /// whole-document test.
    pub fragment_context: Option<String>,
    /// The scripting flag the test requires: `Some(true)` for `#script-on`,
    /// `Some(false)` for `#script-off`, `None` when the test must pass in
    /// both modes.
    pub scripting: Option<bool>,
    /// The expected tree: the `#document` section's lines, each followed by
    /// `"\n"` (the dump format of the suite's README).
    pub document: String,
    /// Whether the test lies under `scripted/` (it needs scripts to run,
    /// e.g. `document.write`).
    pub scripted: bool,
}

impl TreeTest {
    /// The scripting modes the test must be run in: the one it names, or
    /// both (off first) when it names none.
    pub fn scripting_modes(&self) -> Vec<bool> {
        match self.scripting {
            Some(flag) => vec![flag],
            None => vec![false, true],
        }
    }

    /// `file:line`, the test's name in reports.
    pub fn id(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// The folder of the suite, relative to the shared folder.
const SUITE_DIR: &str = "testdata/html5lib/tree-construction";

/// Every test of every `.dat` file of the suite, `scripted/` included, files
/// in sorted order (top-level files, then `scripted/`), tests in file order.
///
/// # Panics
/// When the suite is missing or a file does not follow the format.
pub fn tree_construction_tests() -> Vec<TreeTest> {
    let mut files: Vec<String> = Vec::new();
    for sub in ["", "scripted/"] {
        for p in crate::files_with_suffix(&format!("{SUITE_DIR}/{sub}"), ".dat") {
            files.push(format!("{sub}{}", file_name(&p)));
        }
    }
    files
        .iter()
        .flat_map(|file| {
            let text = crate::read_to_string(&format!("{SUITE_DIR}/{file}"));
            parse_dat(file, &text)
        })
        .collect()
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .expect("a listed file has a name")
        .to_string_lossy()
        .into_owned()
}

/// The tests of one `.dat` file; `file` is the name recorded in each test.
///
/// # Panics
/// When the text does not follow the format (the message names the line).
pub fn parse_dat(file: &str, text: &str) -> Vec<TreeTest> {
    let lines: Vec<&str> = text.split('\n').collect();
    // A test starts at a `#data` line that opens the file or follows a
    // blank line.
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == "#data" && (i == 0 || lines[i - 1].is_empty()))
        .collect();
    assert!(
        starts.first() == Some(&0) || lines.iter().all(|l| l.is_empty()),
        "{file}: does not begin with #data"
    );
    let mut tests = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let end = match starts.get(k + 1) {
            // Drop the one blank line that separates two tests.
            Some(&next) => next - 1,
            None => {
                let mut end = lines.len();
                while end > start && lines[end - 1].is_empty() {
                    end -= 1;
                }
                end
            }
        };
        tests.push(parse_test(file, start, &lines[start..end]));
    }
    tests
}

/// A section header other than `#data` and `#errors`: they end the errors
/// lists.
fn is_directive(line: &str) -> bool {
    matches!(
        line,
        "#new-errors" | "#document-fragment" | "#script-on" | "#script-off" | "#document"
    )
}

/// One test from its lines (`block[0]` is `#data`; `start` is its 0-based
/// line index in the file).
fn parse_test(file: &str, start: usize, block: &[&str]) -> TreeTest {
    let here = |offset: usize| format!("{file}:{}", start + offset + 1);
    let errors_at = block
        .iter()
        .position(|l| *l == "#errors")
        .unwrap_or_else(|| panic!("{}: test has no #errors", here(0)));
    let data = block[1..errors_at].join("\n");

    let mut test = TreeTest {
        file: file.to_owned(),
        line: start + 1,
        data,
        errors: 0,
        new_errors: 0,
        fragment_context: None,
        scripting: None,
        document: String::new(),
        scripted: file.starts_with("scripted/"),
    };
    let count_until_directive = |from: usize| {
        block[from..]
            .iter()
            .take_while(|l| !is_directive(l))
            .count()
    };
    test.errors = count_until_directive(errors_at + 1);
    let mut i = errors_at + 1 + test.errors;
    loop {
        let Some(&line) = block.get(i) else {
            panic!("{}: test has no #document", here(0));
        };
        match line {
            "#new-errors" => {
                test.new_errors = count_until_directive(i + 1);
                i += 1 + test.new_errors;
            }
            "#document-fragment" => {
                let context = block
                    .get(i + 1)
                    .filter(|c| !c.is_empty() && !is_directive(c))
                    .unwrap_or_else(|| panic!("{}: #document-fragment without context", here(i)));
                test.fragment_context = Some((*context).to_owned());
                i += 2;
            }
            "#script-on" | "#script-off" => {
                test.scripting = Some(line == "#script-on");
                i += 1;
            }
            "#document" => {
                for l in &block[i + 1..] {
                    test.document.push_str(l);
                    test.document.push('\n');
                }
                assert!(
                    !test.document.is_empty(),
                    "{}: empty #document section",
                    here(i)
                );
                return test;
            }
            other => panic!("{}: unexpected line {other:?}", here(i)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many lines of the suite's files say exactly `#data`, counted
    /// without the reader.
    fn data_lines_in_files() -> usize {
        let mut count = 0;
        for sub in ["", "scripted/"] {
            for p in crate::files_with_suffix(&format!("{SUITE_DIR}/{sub}"), ".dat") {
                let bytes = std::fs::read(&p).unwrap();
                count += bytes
                    .split(|&b| b == b'\n')
                    .filter(|l| l == b"#data")
                    .count();
            }
        }
        count
    }

    fn find<'a>(tests: &'a [TreeTest], file: &str, data: &str) -> &'a TreeTest {
        tests
            .iter()
            .find(|t| t.file == file && t.data == data)
            .unwrap_or_else(|| panic!("no test {data:?} in {file}"))
    }

    #[test]
    fn reads_every_test_of_every_file() {
        let tests = tree_construction_tests();
        assert_eq!(tests.len(), data_lines_in_files());
        assert!(tests.len() > 1500, "only {} tests", tests.len());
        for t in &tests {
            assert!(t.document.starts_with("| "), "{}: {:?}", t.id(), t.document);
            assert!(t.document.ends_with('\n'), "{}", t.id());
            assert!(!t.document.contains("\n\n#data"), "{}", t.id());
            assert!(!t.data.contains("\n#errors\n"), "{}", t.id());
        }
        assert!(tests.iter().any(|t| t.scripted));
        assert!(
            tests
                .iter()
                .all(|t| t.scripted == t.file.starts_with("scripted/"))
        );
        assert!(tests.iter().any(|t| t.file == "scripted/ark.dat"));
    }

    #[test]
    fn counts_the_tests_of_each_file_as_its_data_lines() {
        let tests = tree_construction_tests();
        let ids: std::collections::HashSet<String> = tests.iter().map(TreeTest::id).collect();
        assert_eq!(ids.len(), tests.len(), "two tests share a file:line");
        for t in &tests {
            let text = crate::read_to_string(&format!("{SUITE_DIR}/{}", t.file));
            assert_eq!(
                text.split('\n').nth(t.line - 1),
                Some("#data"),
                "{}",
                t.id()
            );
        }
    }

    #[test]
    fn keeps_blank_lines_inside_data_and_document() {
        let tests = tree_construction_tests();
        // tests3.dat: an input with an empty line, whose text node spans two
        // lines of the dump (the textarea drops the first newline).
        let t = find(
            &tests,
            "tests3.dat",
            "<!DOCTYPE html><textarea>\n\nfoo</textarea>",
        );
        assert_eq!(t.line, 227);
        assert_eq!((t.errors, t.new_errors), (0, 0));
        assert_eq!(
            t.document,
            "| <!DOCTYPE html>\n| <html>\n|   <head>\n|   <body>\n\
             |     <textarea>\n|       \"\nfoo\"\n"
        );
        // tests1.dat: many error lines, then the dump.
        let t = find(
            &tests,
            "tests1.dat",
            "<!-----><font><div>hello<table>excite!<b>me!<th><i>please!</tr><!--X-->",
        );
        assert_eq!(t.errors, 15);
        assert!(t.document.starts_with("| <!-- - -->\n| <html>\n"));
        assert!(t.document.ends_with("|             <!-- X -->\n"));
    }

    #[test]
    fn reads_fragment_cases() {
        let tests = tree_construction_tests();
        let fragments: Vec<&TreeTest> = tests
            .iter()
            .filter(|t| t.fragment_context.is_some())
            .collect();
        assert!(
            fragments.len() > 100,
            "only {} fragment tests",
            fragments.len()
        );
        assert!(
            fragments
                .iter()
                .any(|t| t.fragment_context.as_deref() == Some("math mi"))
        );
        let t = find(&tests, "tests_innerHTML_1.dat", "<body><span>");
        assert_eq!((t.line, t.errors), (1, 2));
        assert_eq!(t.fragment_context.as_deref(), Some("body"));
        assert_eq!(t.document, "| <span>\n");
        let t = find(&tests, "foreign-fragment.dat", "<font color></font>X");
        assert_eq!(t.fragment_context.as_deref(), Some("svg path"));
        assert_eq!(t.document, "| <font>\n|   color=\"\"\n| \"X\"\n");
    }

    #[test]
    fn reads_scripting_flags_where_the_files_name_them() {
        let tests = tree_construction_tests();
        let on = tests.iter().filter(|t| t.scripting == Some(true)).count();
        let off = tests.iter().filter(|t| t.scripting == Some(false)).count();
        let mut on_lines = 0;
        let mut off_lines = 0;
        for sub in ["", "scripted/"] {
            for p in crate::files_with_suffix(&format!("{SUITE_DIR}/{sub}"), ".dat") {
                let bytes = std::fs::read(&p).unwrap();
                for l in bytes.split(|&b| b == b'\n') {
                    on_lines += usize::from(l == b"#script-on");
                    off_lines += usize::from(l == b"#script-off");
                }
            }
        }
        assert_eq!((on, off), (on_lines, off_lines));
        assert!(on > 0 && off > 0);
        let t = find(
            &tests,
            "noscript01.dat",
            "<head><noscript><!doctype html><!--foo--></noscript>",
        );
        assert_eq!(t.scripting, Some(false));
        assert_eq!(t.scripting_modes(), vec![false]);
    }

    #[test]
    fn parses_optional_sections_in_any_order() {
        let text = "#data\na\n\nb\n#errors\ne1\n#new-errors\nn1\nn2\n#script-on\n\
                    #document-fragment\nsvg path\n#document\n| \"a\n\nb\"\n\n#data\n\
                    #errors\n#document\n| <html>\n\n\n";
        let tests = parse_dat("x.dat", text);
        assert_eq!(tests.len(), 2);
        let t = &tests[0];
        assert_eq!((t.line, t.data.as_str()), (1, "a\n\nb"));
        assert_eq!((t.errors, t.new_errors), (1, 2));
        assert_eq!(t.scripting, Some(true));
        assert_eq!(t.fragment_context.as_deref(), Some("svg path"));
        assert_eq!(t.document, "| \"a\n\nb\"\n");
        let t = &tests[1];
        assert_eq!((t.line, t.data.as_str(), t.errors), (18, "", 0));
        assert_eq!(t.scripting_modes(), vec![false, true]);
        assert_eq!(t.document, "| <html>\n");
    }
}
