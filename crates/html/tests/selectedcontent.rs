//! The customizable select's `<selectedcontent>` as the parser fills it
//! (`dom/select.rs`): the selected option's children cloned into it as
//! each option is popped. Each case is checked in a sequential parse, a
//! parallel parse cut at every character boundary, and a streamed parse
//! fed a byte at a time.
//!
//! The first four cases are html5lib-tests' (`tree-construction/
//! webkit02.dat`, added after the suite in `../shared` was taken); the
//! others are ours, one per rule of the steps.

use spinneret_html::{
    LocalName, NodeRef, ParallelOptions, ParseOptions, SerializeOptions, StreamParser,
    parse_document, parse_document_parallel,
};

/// Parses `input` sequentially, in parallel at every cut and streamed,
/// checks that all give the same tree, and returns the sequential dump.
fn parse_every_way(input: &str) -> spinneret_html::Document {
    let options = ParseOptions::default();
    let doc = parse_document(input, &options);
    let dump = doc.dump();
    for cut in (1..input.len()).filter(|&c| input.is_char_boundary(c)) {
        for tree_speculation in [false, true] {
            let parallel = ParallelOptions {
                threads: 3,
                sequential_below: 0,
                cuts: Some(vec![cut]),
                tree_speculation,
                tree_speculation_from: 0,
            };
            let tree = parse_document_parallel(input, &options, &parallel).dump();
            assert_eq!(tree, dump, "{input:?} cut at {cut} ({tree_speculation})");
        }
    }
    let mut stream = StreamParser::new(&options);
    let mut chars = [0u8; 4];
    for c in input.chars() {
        stream.feed(c.encode_utf8(&mut chars));
    }
    assert_eq!(stream.finish().dump(), dump, "{input:?} streamed");
    doc
}

/// The inner HTML of each `selectedcontent` element, in tree order.
fn selectedcontents(input: &str) -> Vec<String> {
    let doc = parse_every_way(input);
    doc.root()
        .descendants()
        .filter(|n| is(n, LocalName::Selectedcontent))
        .map(|n| n.inner_html(SerializeOptions::default()))
        .collect()
}

/// Whether `node` is the HTML element `name`.
fn is(node: &NodeRef<'_>, name: LocalName) -> bool {
    node.as_element().is_some_and(|e| e.is_html(name))
}

#[track_caller]
fn check_dump(input: &str, expected: &str) {
    let dump = parse_every_way(input).dump();
    assert_eq!(dump.trim_end(), expected.trim_end(), "{input:?}");
}

// ---- html5lib-tests, webkit02.dat ----

#[test]
fn html5lib_the_first_option_without_an_end_tag() {
    check_dump(
        "<select><button><selectedcontent></button><option>X",
        r#"| <html>
|   <head>
|   <body>
|     <select>
|       <button>
|         <selectedcontent>
|           "X"
|       <option>
|         "X""#,
    );
}

#[test]
fn html5lib_formatting_elements_inside_the_option() {
    check_dump(
        "<select><button><selectedcontent></button><option>x<i>i<b>ib</i>b",
        r#"| <html>
|   <head>
|   <body>
|     <select>
|       <button>
|         <selectedcontent>
|           "x"
|           <i>
|             "i"
|             <b>
|               "ib"
|           <b>
|             "b"
|       <option>
|         "x"
|         <i>
|           "i"
|           <b>
|             "ib"
|         <b>
|           "b""#,
    );
}

#[test]
fn html5lib_several_options_the_first_is_selected() {
    check_dump(
        "<select><button><selectedcontent></button><option>X<option>Y",
        r#"| <html>
|   <head>
|   <body>
|     <select>
|       <button>
|         <selectedcontent>
|           "X"
|       <option>
|         "X"
|       <option>
|         "Y""#,
    );
}

#[test]
fn html5lib_a_later_selected_option() {
    check_dump(
        "<select><button><selectedcontent></button><option>X<option selected>Y",
        r#"| <html>
|   <head>
|   <body>
|     <select>
|       <button>
|         <selectedcontent>
|           "Y"
|       <option>
|         "X"
|       <option>
|         selected=""
|         "Y""#,
    );
}

// ---- Ours: one per rule ----

const BUTTON: &str = "<select><button><selectedcontent></selectedcontent></button>";

#[test]
fn end_tags_implied_ends_and_the_end_of_input_all_pop_the_option() {
    for options in [
        "<option>One</option><option>Two</option></select>",
        "<option>One<option>Two</select>",
        "<option>One<optgroup><option>Two</optgroup>",
        "<option>One",
    ] {
        assert_eq!(
            selectedcontents(&(BUTTON.to_owned() + options)),
            ["One"],
            "{options}"
        );
    }
}

#[test]
fn the_last_option_with_a_selected_attribute_wins() {
    let input = "<option>A<option selected>B<option>C<option selected>D<option>E</select>";
    assert_eq!(selectedcontents(&(BUTTON.to_owned() + input)), ["D"]);
    // Before the select is closed, too: the content is the option's whole.
    let input = "<option selected>A<option selected><b>B</b>b<option>C";
    assert_eq!(
        selectedcontents(&(BUTTON.to_owned() + input)),
        ["<b>B</b>b"]
    );
}

#[test]
fn disabled_options_are_passed_over_for_the_first() {
    let cases = [
        ("<option disabled>A<option>B<option>C", "B"),
        ("<optgroup disabled><option>A</optgroup><option>B", "B"),
        // A disabled option that is selected is still the selected one.
        ("<option>A<option disabled selected>B", "B"),
        ("<option disabled>A<option disabled>B", ""),
    ];
    for (options, expected) in cases {
        assert_eq!(
            selectedcontents(&(BUTTON.to_owned() + options)),
            [expected],
            "{options}"
        );
    }
}

#[test]
fn only_a_drop_down_select_shows_its_selected_option() {
    let cases = [
        ("<select multiple>", ""),
        ("<select size=3>", ""),
        ("<select size=' +4'>", ""),
        ("<select size=1>", "A"),
        ("<select size=0>", "A"),
        ("<select size=x>", "A"),
    ];
    for (select, expected) in cases {
        let input = format!(
            "{select}<button><selectedcontent></selectedcontent></button><option>A<option>B"
        );
        assert_eq!(selectedcontents(&input), [expected], "{select}");
    }
}

#[test]
fn options_outside_the_select_s_list_are_not_shown() {
    let cases = [
        // In a datalist, or under a second optgroup: in no select's list
        // of options, so not selected and not shown.
        ("<datalist><option>A</option></datalist><option>B", "B"),
        (
            "<optgroup><div><optgroup><option>A</optgroup></div></optgroup><option>B",
            "B",
        ),
        // Under one optgroup, or a div: in the list.
        ("<optgroup><option>A</optgroup><option>B", "A"),
        ("<div><option>A</div><option>B", "A"),
        // After an hr (void, so not an ancestor): in the list.
        ("<hr><option>A", "A"),
    ];
    for (options, expected) in cases {
        let input = format!("{BUTTON}{options}");
        assert_eq!(selectedcontents(&input), [expected], "{options}");
    }
}

#[test]
fn a_selectedcontent_after_the_selected_option_stays_empty() {
    // The option was popped before the selectedcontent existed, and the
    // second option is not the selected one.
    let input = "<select><option>A</option><button><selectedcontent></selectedcontent></button><option>B</option></select>";
    assert_eq!(selectedcontents(input), [""]);
}

#[test]
fn each_select_fills_its_own_and_only_its_first_selectedcontent() {
    let input = format!(
        "{BUTTON}<selectedcontent></selectedcontent><option>A</select>\
         <select><button><selectedcontent></selectedcontent></button><option>B<option selected>C</select>\
         <select><option>D</select>"
    );
    assert_eq!(selectedcontents(&input), ["A", "", "C"]);
}

#[test]
fn templates_and_comments_are_cloned_deeply() {
    let input = format!("{BUTTON}<option><template><b>t</b></template><!--c-->x</option>");
    check_dump(
        &input,
        r#"| <html>
|   <head>
|   <body>
|     <select>
|       <button>
|         <selectedcontent>
|           <template>
|             content
|               <b>
|                 "t"
|           <!-- c -->
|           "x"
|       <option>
|         <template>
|           content
|             <b>
|               "t"
|         <!-- c -->
|         "x""#,
    );
}

#[test]
fn a_selectedcontent_inside_the_option_gets_the_option_s_children_as_they_were() {
    // The steps clone first, then replace: the clone holds the
    // selectedcontent as it was (empty), so nothing grows without bound.
    let input = "<select><option><selectedcontent></selectedcontent>A</option></select>";
    check_dump(
        input,
        r#"| <html>
|   <head>
|   <body>
|     <select>
|       <option>
|         <selectedcontent>
|           <selectedcontent>
|           "A"
|         "A""#,
    );
}

#[test]
fn pages_without_selectedcontent_are_unchanged() {
    let input = "<select><option selected>A<option>B</select><select multiple><option>C</select>";
    let doc = parse_every_way(input);
    assert!(
        doc.root()
            .descendants()
            .all(|n| !is(&n, LocalName::Selectedcontent))
    );
    let options: Vec<String> = doc
        .root()
        .descendants()
        .filter(|n| is(n, LocalName::Option))
        .map(|n| n.inner_html(SerializeOptions::default()))
        .collect();
    assert_eq!(options, ["A", "B", "C"]);
}
