//! An input longer than 4 GiB tokenizes as any other: token texts are
//! spans of the input or of scratch space with `usize` offsets. (With `u32`
//! offsets, a text run past 4 GiB came out as its first 64 bytes and a
//! later attribute value as another part of the page.)
//!
//! Its own test binary: it holds a 4 GiB string (about 4.2 GB resident for
//! some seconds), so it runs alone.
use spinneret_html::{OwnedToken, Token, Tokenizer, TokenizerOptions};

#[test]
fn a_text_run_and_tags_past_4_gib() {
    const LINE: &str = "text text text text text text text text text text text text text\n";
    let run_len = (1usize << 32) + LINE.len();
    let mut input = String::with_capacity(run_len + 64);
    input.push_str("<p>");
    while input.len() - 3 < run_len {
        input.push_str(LINE);
    }
    let run_len = input.len() - 3;
    input.push_str("<b class=x>tail &amp; more</b>");

    let mut tokenizer = Tokenizer::new(&input, TokenizerOptions::default());
    let mut tokens = Vec::new();
    while let Some(token) = tokenizer.next_token() {
        tokens.push(match token {
            // The long run is checked by its length and ends, not copied.
            Token::Text(t) if t.len() > 1 << 20 => {
                assert!(t.starts_with(LINE) && t.ends_with(LINE));
                OwnedToken::Text(format!("<{} bytes>", t.len()))
            }
            other => other.to_owned(),
        });
    }
    let rendered: Vec<String> = tokens.iter().map(|t| format!("{t:?}")).collect();
    assert_eq!(tokens.len(), 5, "{rendered:#?}");
    assert_eq!(tokens[1], OwnedToken::Text(format!("<{run_len} bytes>")));
    assert!(
        rendered[2].contains("\"b\"") && rendered[2].contains("\"x\""),
        "{}",
        rendered[2]
    );
    assert_eq!(tokens[3], OwnedToken::Text("tail & more".to_owned()));
}
