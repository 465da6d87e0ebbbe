//! The tokenizer's fast paths (tags, text runs with references or CRs,
//! comments; on when errors are not reported) give exactly the tokens of the
//! standard's states (taken when errors are reported), on inputs made to sit
//! at the edges of what the fast paths accept. The html5lib harness and the
//! corpus tests check the same on their inputs.
use spinneret_html::{OwnedToken, Tokenizer, TokenizerOptions};

/// The tokens with the fast paths (errors off) and without (errors on).
fn both_ways(input: &str) -> (Vec<OwnedToken>, Vec<OwnedToken>) {
    let run = |report_errors| {
        let mut t = Tokenizer::new(
            input,
            TokenizerOptions {
                report_errors,
                ..TokenizerOptions::default()
            },
        );
        let mut out = Vec::new();
        while let Some(token) = t.next_token() {
            out.push(token.to_owned());
        }
        out
    };
    (run(false), run(true))
}

#[test]
fn fast_paths_give_the_states_tokens() {
    for input in [
        // Tags: case, CR, quotes, references, duplicates, odd shapes.
        "<A HREF=\"/x\" Class=b>t</A>",
        "<a\r\nhref='y'\r\nid=z>",
        "<img src=a&amp;b alt=\"&quot;q&quot;\" title=x&y>",
        "<p a=1 a=2 b B=3>",
        "<a href=\"x\"title=y>",
        "<br/><br /><br/ x>",
        "<a =x>",
        "<a href=>",
        "<div\u{1}a=b>",
        "</p id=x>",
        "<a\0b>",
        // Comments: the shapes that stay literal and those that do not.
        "<!--a-->",
        "<!--a--->",
        "<!--a<!--b-->",
        "<!--a<!-->",
        "<!--a<!--->",
        "<!--a--b-->",
        "<!--a--!>",
        "<!---->",
        "<!-->",
        "<!--->",
        "<!--a\r\nb-->",
        "<!--a\0-->",
        "<!--a",
        // Text with references and CRs.
        "a&amp;b\r\nc\rd<p>",
        "x < y &notanentity; z\r",
    ] {
        let (fast, states) = both_ways(input);
        assert_eq!(fast, states, "{input:?}");
    }
}
