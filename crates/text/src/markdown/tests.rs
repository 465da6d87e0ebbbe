//! Markdown structure, one construct at a time.

use super::{Options, render};
use spinneret_html::{ParseOptions, parse_document};

fn md(html: &str) -> String {
    let doc = parse_document(html, &ParseOptions::default());
    render(doc.root(), |_| false, &Options::default())
}

fn md_links(html: &str, base: &str) -> String {
    let doc = parse_document(html, &ParseOptions::default());
    render(
        doc.root(),
        |_| false,
        &Options {
            links: true,
            base: Some(base),
            ..Options::default()
        },
    )
}

#[test]
fn headings_and_paragraphs() {
    assert_eq!(
        md("<h1>Title</h1><p>One.</p><p>Two.</p>"),
        "# Title\n\nOne.\n\nTwo."
    );
    assert_eq!(md("<h3>A<br>b <div>c</div></h3>x"), "### A b c\n\nx");
    assert_eq!(md("<h2></h2><p>no heading</p>"), "no heading");
    assert_eq!(md("<div>a</div><div>b</div>"), "a\nb");
    assert_eq!(md("a<br>b"), "a\nb");
    assert_eq!(
        md("<title>T</title><script>x</script><p hidden>h</p>v"),
        "v"
    );
}

#[test]
fn lists() {
    assert_eq!(md("<ul><li>a<li>b</ul>"), "- a\n- b");
    assert_eq!(md("<ol start=3><li>c<li>d</ol>"), "3. c\n4. d");
    assert_eq!(md("<ol reversed><li>x<li>y<li>z</ol>"), "3. x\n2. y\n1. z");
    assert_eq!(
        md("<ul><li>a<ul><li>b<li>c</ul><li>d</ul>"),
        "- a\n  - b\n  - c\n- d"
    );
    assert_eq!(
        md("<ol><li><p>para one</p><p>para two</p><li>next</ol>"),
        "1. para one\n\n   para two\n\n2. next"
    );
    assert_eq!(
        md("<p>before</p><ul><li>i</ul><p>after</p>"),
        "before\n\n- i\n\nafter"
    );
}

#[test]
fn block_quotes() {
    assert_eq!(
        md("<blockquote><p>q1</p><p>q2</p></blockquote>"),
        "> q1\n>\n> q2"
    );
    assert_eq!(
        md("<blockquote>a<blockquote>b</blockquote></blockquote>"),
        "> a\n> >\n> > b"
    );
    assert_eq!(md("<blockquote><ul><li>x</ul></blockquote>"), "> - x");
}

#[test]
fn code() {
    assert_eq!(
        md("<pre class=language-rust>fn main() {\n    x();\n}</pre>"),
        "```rust\nfn main() {\n    x();\n}\n```"
    );
    assert_eq!(md("<pre><code>a ``` b</code></pre>"), "````\na ``` b\n````");
    assert_eq!(md("use <code>x  y</code> now"), "use `x y` now");
    assert_eq!(md("<code>a`b</code>"), "``a`b``");
    assert_eq!(
        md("<blockquote><pre>l1\nl2</pre></blockquote>"),
        "> ```\n> l1\n> l2\n> ```"
    );
}

#[test]
fn tables() {
    assert_eq!(
        md("<table><tr><th>h1<th>h2<tr><td>a|b<td>c<br>d</table>"),
        "| h1 | h2 |\n| --- | --- |\n| a\\|b | c d |"
    );
    assert_eq!(
        md("<p>x</p><table><caption>Cap</caption><tr><td>1</table>"),
        "x\n\nCap\n\n| 1 |\n| --- |"
    );
    // A layout table: rows as lines.
    assert_eq!(
        md("<table><tr><td><p>long</p><td>side</table>"),
        "long\n\nside"
    );
}

#[test]
fn links_and_images() {
    let html = "<a href=/x>go <b>here</b></a> <img src=i.png alt='a [pic]'> <a href=javascript:void(0)>js</a>";
    assert_eq!(md(html), "go here js");
    assert_eq!(
        md_links(html, "https://e.com/d/"),
        "[go here](https://e.com/x) ![a pic](https://e.com/d/i.png) js"
    );
    assert_eq!(md_links("<a href=/e></a>x", "https://e.com/"), "x");
}

#[test]
fn escapes_and_rules() {
    assert_eq!(
        md("<p># not a heading</p><p>- nor a list</p>"),
        "\\# not a heading\n\n\\- nor a list"
    );
    assert_eq!(
        md("<p>1. one</p><p>2015. year</p>"),
        "\\1. one\n\n\\2015. year"
    );
    assert_eq!(md("a<hr>b"), "a\n\n---\n\nb");
}

#[test]
fn details_show_their_summary() {
    assert_eq!(md("<details><summary>S</summary>more</details>z"), "S\nz");
    assert_eq!(
        md("<details open><summary>S</summary>more</details>"),
        "S\nmore"
    );
}

#[test]
fn deep_nesting() {
    let depth = 200_000;
    let html = format!(
        "{}deep{}",
        "<blockquote>".repeat(depth),
        "</blockquote>".repeat(depth)
    );
    let out = md(&html);
    assert!(out.ends_with("deep"));
    let html = format!("{}x", "<ul><li>".repeat(50_000));
    assert!(md(&html).ends_with("- x"));
}

#[test]
fn definition_lists_as_pandoc_writes_them() {
    assert_eq!(
        md(
            "<dl><dt>Weight</dt><dd>1.2 kg</dd><dt>Size</dt><dd>A4</dd><dd>Letter, <b>US</b></dd></dl><p>After"
        ),
        "Weight\n: 1.2 kg\nSize\n: A4\n: Letter, US\n\nAfter"
    );
    // Paragraphs in a definition: a blank line before it (Pandoc's
    // loose form), its continuation indented under it.
    assert_eq!(
        md("<dl><dt>Note</dt><dd><p>One.</p><p>Two.</p></dd></dl>"),
        "Note\n\n: One.\n\n  Two."
    );
}
