//! html5lib-tests' serializer suite (`serializer/*.test`) through the HTML
//! Standard's *serializing HTML fragments* algorithm
//! ([`NodeRef::outer_html`]).
//!
//! Each test is a token stream in html5lib's tree-walker notation; the
//! harness builds the tree those tokens describe with the DOM's
//! construction API (a fragment root; a start tag opens an element, its
//! end tag closes it; void elements never open) and serializes it.
//!
//! html5lib-python's serializer is not the standard's algorithm: it writes
//! a token stream, not a tree, and has options of its own, several on by
//! default. A test is *out of scope* when it exercises one of the
//! html5lib-only behaviours in [`RULES`] — decided from the test's input,
//! options and expectation, never from our output — and every such test is
//! printed with the rules it exercises and counted. Every other test is in
//! scope and must pass. Its expectation is the standard's output except for
//! one thing a token stream lacks: end tags of elements the stream leaves
//! open, which the tree has; the harness appends those (innermost first)
//! to the expectation before comparing.
//!
//! The standard has escaped `<` and `>` in attribute values since 2025;
//! these test files expect that too (`title="foo&gt;bar"`).

use serde_json::Value;
use spinneret_html::{AttrNamespace, Document, Namespace, NodeId, SerializeOptions};
use spinneret_testdata::{SerializerTest, serializer_tests};

/// One token of a test's input.
#[derive(Debug)]
enum Tok {
    Start {
        ns: Namespace,
        name: String,
        attrs: Vec<(AttrNamespace, String, String)>,
        /// `EmptyTag` (html5lib writes it as a start tag and never an end
        /// tag).
        empty: bool,
    },
    End {
        name: String,
    },
    Characters(String),
    Comment(String),
    Doctype {
        name: String,
        public_id: String,
        system_id: String,
    },
}

/// A test, read.
struct Case<'t> {
    test: &'t SerializerTest,
    tokens: Vec<Tok>,
}

impl Case<'_> {
    fn option(&self, key: &str) -> Option<&Value> {
        self.test.options.as_ref().and_then(|o| o.get(key))
    }

    fn option_true(&self, key: &str) -> bool {
        self.option(key) == Some(&Value::Bool(true))
    }
}

/// An html5lib-only behaviour and how to tell that a test exercises it
/// (from the input and options, and from one accepted expectation).
struct Rule {
    name: &'static str,
    why: &'static str,
    exercised: fn(&Case<'_>, &str) -> bool,
}

/// The options html5lib's serializer takes and how this harness treats
/// them: every option a test sets must be listed (a new one fails the
/// suite until someone decides).
const KNOWN_OPTIONS: &[(&str, &str)] = &[
    (
        "encoding",
        "the output encoding of html5lib's byte output; ours is a string \
         (it matters only to inject_meta_charset)",
    ),
    (
        "quote_attr_values",
        "true (always quote) is the standard's rule; the default \
         (\"legacy\": leave some values unquoted) is the rule `unquoted_attribute_values`",
    ),
    (
        "escape_lt_in_attrs",
        "true is the standard's rule since 2025; the tests expect `&lt;` \
         in attribute values whatever the option",
    ),
    ("quote_char", "rule `single_quoted_attribute_values`"),
    ("use_trailing_solidus", "rule `use_trailing_solidus`"),
    (
        "minimize_boolean_attributes",
        "false is the standard's rule; the default is the rule \
         `minimize_boolean_attributes`",
    ),
    ("escape_rcdata", "rule `escape_rcdata`"),
    ("strip_whitespace", "rule `strip_whitespace`"),
    ("inject_meta_charset", "rule `inject_meta_charset`"),
];

/// The html5lib-only behaviours: a test exercising any is out of scope.
const RULES: &[Rule] = &[
    Rule {
        name: "omit_optional_tags",
        why: "html5lib omits optional start and end tags by default; the \
              standard writes every tag of the tree",
        exercised: |case, expected| {
            case.tokens.iter().any(|t| match t {
                Tok::Start { name, .. } => {
                    count_start_tags(expected, name) < count(&case.tokens, name, true)
                }
                Tok::End { name } => {
                    expected.matches(&format!("</{name}>")).count()
                        < count(&case.tokens, name, false)
                }
                _ => false,
            })
        },
    },
    Rule {
        name: "stray_end_tag",
        why: "an end tag with no open element: html5lib serializes a token \
              stream, which no tree (and so no standard serialization) has",
        exercised: |case, _| {
            let mut open: Vec<&str> = Vec::new();
            for t in &case.tokens {
                match t {
                    Tok::Start {
                        name, empty: false, ..
                    } if !is_void(name) => open.push(name),
                    Tok::End { name } => match open.iter().rposition(|o| o == name) {
                        Some(i) => open.truncate(i),
                        None => return true,
                    },
                    _ => {}
                }
            }
            false
        },
    },
    Rule {
        name: "empty_tag_of_non_void_element",
        why: "html5lib writes an EmptyTag of a non-void element as a lone \
              start tag; in a tree that element has an end tag",
        exercised: |case, _| {
            case.tokens
                .iter()
                .any(|t| matches!(t, Tok::Start { name, empty: true, .. } if !is_void(name)))
        },
    },
    Rule {
        name: "unquoted_attribute_values",
        why: "html5lib's quote_attr_values=\"legacy\" (its default) leaves \
              values unquoted; the standard always quotes with `\"`",
        exercised: |case, expected| attr_spellings(case, expected).any(|s| s == Spelling::Unquoted),
    },
    Rule {
        name: "single_quoted_attribute_values",
        why: "html5lib's use_best_quote_char (default) and quote_char pick \
              `'`; the standard always quotes with `\"` and escapes `\"`",
        exercised: |case, expected| attr_spellings(case, expected).any(|s| s == Spelling::Single),
    },
    Rule {
        name: "minimize_boolean_attributes",
        why: "html5lib drops the value of boolean attributes by default; the \
              standard always writes `name=\"value\"`",
        exercised: |case, expected| {
            attr_spellings(case, expected).any(|s| s == Spelling::Minimized)
        },
    },
    Rule {
        name: "doctype_identifiers",
        why: "html5lib writes a DOCTYPE's PUBLIC and SYSTEM identifiers; the \
              standard writes `<!DOCTYPE name>` only",
        exercised: |case, _| {
            case.tokens.iter().any(|t| {
                matches!(t, Tok::Doctype { public_id, system_id, .. }
                    if !public_id.is_empty() || !system_id.is_empty())
            })
        },
    },
    Rule {
        name: "use_trailing_solidus",
        why: "html5lib's option writes `<img />`; the standard writes `<img>`",
        exercised: |_, expected| expected.contains("/>"),
    },
    Rule {
        name: "escape_rcdata",
        why: "html5lib's option escapes the text of script/style; the \
              standard writes raw text as it is",
        exercised: |case, _| case.option_true("escape_rcdata"),
    },
    Rule {
        name: "strip_whitespace",
        why: "html5lib's option collapses whitespace outside pre, textarea, \
              script and style; the standard keeps text as it is",
        exercised: |case, _| {
            case.option_true("strip_whitespace") && {
                let mut open: Vec<&str> = Vec::new();
                case.tokens.iter().any(|t| match t {
                    Tok::Start {
                        name, empty: false, ..
                    } if !is_void(name) => {
                        open.push(name);
                        false
                    }
                    Tok::End { .. } => {
                        open.pop();
                        false
                    }
                    Tok::Characters(text) => {
                        !open
                            .iter()
                            .any(|o| matches!(*o, "pre" | "textarea" | "script" | "style"))
                            && (text.contains(['\t', '\n', '\r', '\x0c']) || text.contains("  "))
                    }
                    _ => false,
                })
            }
        },
    },
    Rule {
        name: "inject_meta_charset",
        why: "html5lib's option adds or rewrites `<meta charset>` in head; the \
              standard serializes the tree as it is",
        exercised: |case, _| case.option_true("inject_meta_charset"),
    },
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Spelling {
    Double,
    Single,
    Unquoted,
    Minimized,
}

/// How `expected` spells each attribute of the input (found by name, in
/// order, after its tag's name).
fn attr_spellings<'a>(
    case: &'a Case<'_>,
    expected: &'a str,
) -> impl Iterator<Item = Spelling> + 'a {
    let mut from = 0;
    case.tokens.iter().flat_map(move |t| {
        let mut out = Vec::new();
        if let Tok::Start { name, attrs, .. } = t
            && let Some(at) = find_start_tag(expected, name, from)
        {
            from = at + 1;
            let tag_end = expected[at..].find('>').map_or(expected.len(), |i| at + i);
            let tag = &expected[at..tag_end];
            for (_, attr, _) in attrs {
                let Some(i) = tag.find(&format!(" {attr}")) else {
                    continue;
                };
                let after = &tag[i + 1 + attr.len()..];
                out.push(match after.chars().next() {
                    Some('=') => match after[1..].chars().next() {
                        Some('"') => Spelling::Double,
                        Some('\'') => Spelling::Single,
                        _ => Spelling::Unquoted,
                    },
                    _ => Spelling::Minimized,
                });
            }
        }
        out
    })
}

/// Where `<name` starts a tag in `s` (at or after `from`).
fn find_start_tag(s: &str, name: &str, from: usize) -> Option<usize> {
    let pat = format!("<{name}");
    let mut at = from;
    while let Some(i) = s.get(at..)?.find(&pat) {
        let i = at + i;
        if matches!(
            s[i + pat.len()..].chars().next(),
            None | Some(' ' | '>' | '/')
        ) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

fn count_start_tags(s: &str, name: &str) -> usize {
    let mut n = 0;
    let mut from = 0;
    while let Some(i) = find_start_tag(s, name, from) {
        n += 1;
        from = i + 1;
    }
    n
}

/// How many start (or end) tag tokens named `name` the input has.
fn count(tokens: &[Tok], name: &str, start: bool) -> usize {
    tokens
        .iter()
        .filter(|t| match t {
            Tok::Start { name: n, .. } => start && n == name,
            Tok::End { name: n } => !start && n == name,
            _ => false,
        })
        .count()
}

fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

fn namespace(url: &Value) -> Namespace {
    match url.as_str() {
        None | Some("http://www.w3.org/1999/xhtml") => Namespace::Html,
        Some("http://www.w3.org/2000/svg") => Namespace::Svg,
        Some("http://www.w3.org/1998/Math/MathML") => Namespace::MathMl,
        Some(other) => panic!("an element namespace the DOM does not have: {other}"),
    }
}

fn attr_namespace(url: &Value) -> AttrNamespace {
    match url.as_str() {
        None => AttrNamespace::None,
        Some("http://www.w3.org/1999/xlink") => AttrNamespace::XLink,
        Some("http://www.w3.org/XML/1998/namespace") => AttrNamespace::Xml,
        Some("http://www.w3.org/2000/xmlns/") => AttrNamespace::Xmlns,
        Some(other) => panic!("an attribute namespace the DOM does not have: {other}"),
    }
}

fn attrs(v: &Value) -> Vec<(AttrNamespace, String, String)> {
    match v {
        Value::Array(list) => list
            .iter()
            .map(|a| {
                (
                    attr_namespace(&a["namespace"]),
                    a["name"].as_str().unwrap().to_owned(),
                    a["value"].as_str().unwrap().to_owned(),
                )
            })
            .collect(),
        Value::Object(map) if map.is_empty() => Vec::new(),
        other => panic!("attributes as {other}"),
    }
}

fn tokens(input: &Value) -> Vec<Tok> {
    let string = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    input
        .as_array()
        .expect("a token list")
        .iter()
        .map(|t| {
            let t = t.as_array().expect("a token");
            match t[0].as_str().unwrap() {
                "StartTag" => Tok::Start {
                    ns: namespace(&t[1]),
                    name: string(&t[2]),
                    attrs: attrs(&t[3]),
                    empty: false,
                },
                "EmptyTag" => Tok::Start {
                    ns: Namespace::Html,
                    name: string(&t[1]),
                    attrs: attrs(&t[2]),
                    empty: true,
                },
                "EndTag" => Tok::End {
                    name: string(&t[2]),
                },
                "Characters" => Tok::Characters(string(&t[1])),
                "Comment" => Tok::Comment(string(&t[1])),
                "Doctype" => Tok::Doctype {
                    name: string(&t[1]),
                    public_id: t.get(2).map(string).unwrap_or_default(),
                    system_id: t.get(3).map(string).unwrap_or_default(),
                },
                other => panic!("a token type {other}"),
            }
        })
        .collect()
}

/// The tree the tokens describe, serialized, and the names of the elements
/// left open (outermost first).
fn build_and_serialize(tokens: &[Tok]) -> (String, Vec<String>) {
    let mut doc = Document::new_fragment();
    let root = doc.root().id();
    let mut open: Vec<(NodeId, &str)> = Vec::new();
    for t in tokens {
        let parent = open.last().map_or(root, |&(id, _)| id);
        match t {
            Tok::Start {
                ns,
                name,
                attrs,
                empty,
            } => {
                let attrs: Vec<_> = attrs
                    .iter()
                    .map(|(ns, n, v)| (*ns, n.as_str(), v.as_str()))
                    .collect();
                let e = doc.create_element(*ns, name, &attrs);
                doc.append_child(parent, e);
                if !empty && !is_void(name) {
                    open.push((e, name));
                }
            }
            Tok::End { name } => {
                let i = open
                    .iter()
                    .rposition(|(_, o)| o == name)
                    .expect("in-scope tests close only open elements");
                open.truncate(i);
            }
            Tok::Characters(text) => {
                let t = doc.create_text(text);
                doc.append_child(parent, t);
            }
            Tok::Comment(text) => {
                let c = doc.create_comment(text);
                doc.append_child(parent, c);
            }
            Tok::Doctype {
                name,
                public_id,
                system_id,
            } => {
                doc.append_doctype(name, public_id, system_id);
            }
        }
    }
    let html = doc.root().outer_html(SerializeOptions::default());
    (html, open.iter().map(|(_, n)| n.to_string()).collect())
}

#[test]
fn serializer_suite() {
    let tests = serializer_tests();
    let (mut in_scope, mut passed) = (Vec::new(), 0);
    let mut out_of_scope: Vec<(String, Vec<&str>)> = Vec::new();
    let mut failures = Vec::new();
    for test in &tests {
        for key in test
            .options
            .iter()
            .flat_map(|o| o.as_object().unwrap().keys())
        {
            assert!(
                KNOWN_OPTIONS.iter().any(|(k, _)| k == key),
                "{}: html5lib option {key:?} is not classified in KNOWN_OPTIONS",
                test.id()
            );
        }
        let case = Case {
            test,
            tokens: tokens(&test.input),
        };
        let exercised = |expected: &str| -> Vec<&str> {
            RULES
                .iter()
                .filter(|r| (r.exercised)(&case, expected))
                .map(|r| r.name)
                .collect()
        };
        let standard: Vec<&String> = test
            .expected
            .iter()
            .filter(|e| exercised(e).is_empty())
            .collect();
        if standard.is_empty() {
            out_of_scope.push((test.id(), exercised(&test.expected[0])));
            continue;
        }
        in_scope.push(test.id());
        let (got, open) = build_and_serialize(&case.tokens);
        let close: String = open.iter().rev().map(|n| format!("</{n}>")).collect();
        let wants: Vec<String> = standard.iter().map(|e| format!("{e}{close}")).collect();
        if wants.contains(&got) {
            passed += 1;
        } else {
            failures.push(format!(
                "{} ({}):\n  input {}\n  want  {:?}\n  got   {:?}",
                test.id(),
                test.description,
                test.input,
                wants,
                got
            ));
        }
    }
    println!("html5lib-only behaviours (out of scope):");
    for rule in RULES {
        let n = out_of_scope
            .iter()
            .filter(|(_, r)| r.contains(&rule.name))
            .count();
        println!("  {:<32} {n:>4} tests  {}", rule.name, rule.why);
    }
    println!("options: ");
    for (k, how) in KNOWN_OPTIONS {
        println!("  {k:<28} {how}");
    }
    for (id, rules) in &out_of_scope {
        println!("out of scope: {id}: {}", rules.join(", "));
    }
    println!("in scope: {}", in_scope.join(" "));
    println!(
        "serializer: {passed}/{} in scope passed; {} out of scope; {} tests",
        in_scope.len(),
        out_of_scope.len(),
        tests.len()
    );
    assert_eq!(in_scope.len() + out_of_scope.len(), tests.len());
    assert!(
        failures.is_empty(),
        "{} in-scope failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
