//! The tokenizer's fast paths (tags, text runs with references or CRs,
//! comments; on when errors are not reported) give exactly the tokens of the
//! standard's states (taken when errors are reported), on inputs made to sit
//! at the edges of what the fast paths accept. The html5lib harness and the
//! corpus tests check the same on their inputs. Leaving out the data
//! state's text (`Tokenizer::skip_data_text`) changes no other token.
use spinneret_html::{OwnedToken, Token, Tokenizer, TokenizerOptions};

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
        // Whitespace between a tag's parts: none, one, two, a run, and the
        // end of the input after each (the whitespace skip's three ways out).
        "<a  \t\n href = \"x\"  \r\n >",
        "<a href\t=\n\n'y' id\r\n\r\n=\tz   >",
        "<a",
        "<a ",
        "<a  ",
        "<a   ",
        "<a href",
        "<a href ",
        "<a href=",
        "<a href=  ",
        "<a href=\"x\"",
        "<a href=\"x\" ",
        "<a href=\"x\"   ",
        "<a href=x&amp",
        "<a title=\"&amp",
        "<a title='&#x41;&lt;b'>",
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
        // Text that begins with a CRLF (taken from its LF on) and its edges.
        "\r\n<p>\r\n  <b>\r\n</b>",
        "<p>\r\n  x\r\ny<b>",
        "<p>\r\n&amp;<b>",
        "<p>\r\r\n<b>",
        "<p>\r\n\r\n<b>",
        "<p>\r\n< b>",
        "<p>\r\n",
        "<p>\r",
    ] {
        let (fast, states) = both_ways(input);
        assert_eq!(fast, states, "{input:?}");
    }
    let (fast, _) = both_ways("<p>\r\n  <b>");
    assert_eq!(fast[1], OwnedToken::Text("\n  ".to_owned()));
}

/// Every token but text, with the offset after it, and the text tokens,
/// skipping data-state text where `skip(i)` says for the `i`-th token.
fn markup_and_text(
    input: &str,
    skip: impl Fn(usize) -> bool,
) -> (Vec<(OwnedToken, usize)>, Vec<String>) {
    let mut t = Tokenizer::new(input, TokenizerOptions::default());
    let (mut markup, mut texts) = (Vec::new(), Vec::new());
    let mut i = 0;
    loop {
        t.skip_data_text(skip(i));
        let Some(token) = t.next_token() else { break };
        match token {
            Token::Text(text) => texts.push(text.to_owned()),
            other => {
                let other = other.to_owned();
                markup.push((other, t.offset()));
            }
        }
        i += 1;
    }
    (markup, texts)
}

/// Skipping, never, always, or every other token (as the link extractor
/// switches it at anchors): the same markup at the same offsets, and the
/// text left is text the tokenizer returns without skipping. Returns how
/// many text tokens skipping always left out.
fn check_skipping(name: &str, input: &str) -> usize {
    let (markup, texts) = markup_and_text(input, |_| false);
    for (how, skip) in [
        ("always", &(|_| true) as &dyn Fn(usize) -> bool),
        ("every other token", &|i| i % 2 == 0),
    ] {
        let (skipped_markup, skipped_texts) = markup_and_text(input, skip);
        assert_eq!(skipped_markup, markup, "{name}: skipping {how}");
        let mut all = texts.iter();
        for text in &skipped_texts {
            assert!(
                all.any(|t| t == text),
                "{name}: skipping {how}: {text:?} is not a text token without skipping"
            );
        }
    }
    texts.len() - markup_and_text(input, |_| true).1.len()
}

#[test]
fn skipping_data_text_changes_no_other_token() {
    for input in [
        "a &amp; b<p>c<script>d</script>e",
        "x < y <3 <p>z",
        "a</",
        "a<",
        "a</>b<!--c-->d<!x>e<?y>f</ g>h",
        "a\r\nb\0c&lt;<b>d</b>",
        "<title>a&amp;<b></title><textarea>c<d></textarea><style>e<f></style>",
        "<svg><![CDATA[a<b]]>c<p>d",
        "<plaintext>a<b>c",
        "<noscript>a<b></noscript>c",
        "no markup at all &amp; no end",
    ] {
        check_skipping(input, input);
    }
    assert_eq!(check_skipping("", "a<p>b&amp;<!---->c<b>d"), 3);
    let left_out: usize = spinneret_testdata::corpus_pages_text()
        .iter()
        .map(|(path, page)| check_skipping(path, page))
        .sum();
    assert!(left_out > 1_000_000, "{left_out} text tokens left out");
}
