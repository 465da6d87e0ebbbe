//! Anchor texts: the text of each `<a href>`, collected while the page is
//! scanned, for [`Link::text`](crate::Link::text).
//!
//! All of a page's anchor texts live one after another in one string that
//! is kept from page to page. Invariants: text is only ever appended to the
//! last anchor text (an `<a>` closes the one before), so each text is the
//! range from where it began to where the next began; runs of ASCII
//! whitespace become one space between words (none before the first or
//! after the last); a text stops at [`ANCHOR_TEXT_MAX`] characters; the
//! texts stop growing at 4 GiB in all (only a page over 4 GiB reaches it).

use crate::chunked::Chunked;

/// The most bytes of anchor text a page keeps, in all.
const ALL_MAX: usize = u32::MAX as usize;

/// The cap on [`Link::text`](crate::Link::text), in characters.
pub const ANCHOR_TEXT_MAX: usize = 256;

/// The anchor texts of a page, one after another in one string. Text is
/// only ever appended to the last one (an `<a>` closes the one before), so
/// each is a range of `all`: it starts where [`AnchorTexts::begin`] left
/// `all` and ends where the next starts.
#[derive(Default)]
pub(crate) struct AnchorTexts {
    pub(crate) all: String,
    /// Where each text starts in `all` (one per `<a href>`: a page of a
    /// million links has a million, so they are 32-bit and in chunks).
    pub(crate) starts: Chunked<u32>,
    /// The last text's length in characters.
    chars: usize,
    /// Whether the last text has had whitespace after its last word.
    space: bool,
}

impl AnchorTexts {
    /// Forgets every text (keeping the allocations).
    pub(crate) fn clear(&mut self) {
        self.all.clear();
        self.starts.clear();
    }

    /// Starts a new (empty) text; returns its index.
    pub(crate) fn begin(&mut self) -> usize {
        // `push` keeps `all` within ALL_MAX.
        self.starts.push(self.all.len() as u32);
        self.chars = 0;
        self.space = false;
        self.starts.len() - 1
    }

    /// Text `i`.
    pub(crate) fn get(&self, i: usize) -> &str {
        let at = |i| self.starts.get(i).map_or(self.all.len(), |s| s as usize);
        let (start, end) = (at(i), at(i + 1));
        self.all.get(start..end).unwrap_or_default()
    }

    /// Appends a text token to the last text: runs of ASCII whitespace
    /// become one space between words (none before the first), and the text
    /// stops at [`ANCHOR_TEXT_MAX`] characters. Words are appended whole:
    /// character by character, anchor texts cost 1.4 % more of the
    /// pipeline's instructions.
    pub(crate) fn push(&mut self, t: &str) {
        let Some(start) = self.starts.last() else {
            return;
        };
        let start = start as usize;
        // A text adds at most ANCHOR_TEXT_MAX characters and a space.
        if self.all.len() > ALL_MAX - (4 * ANCHOR_TEXT_MAX + 1) {
            return;
        }
        // `u8::is_ascii_whitespace` is exactly the HTML standard's ASCII
        // whitespace (tab, LF, FF, CR, space).
        let mut rest = t;
        while self.chars < ANCHOR_TEXT_MAX {
            let spaces = rest.bytes().take_while(u8::is_ascii_whitespace).count();
            if spaces > 0 {
                self.space = self.all.len() > start;
                rest = &rest[spaces..];
            }
            if rest.is_empty() {
                return;
            }
            if self.space {
                self.all.push(' ');
                self.chars += 1;
                self.space = false;
                if self.chars >= ANCHOR_TEXT_MAX {
                    return;
                }
            }
            // The word: up to the next space (ASCII, so a char boundary).
            let word_len = rest
                .bytes()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len());
            let word = &rest[..word_len];
            let room = ANCHOR_TEXT_MAX - self.chars;
            let (taken, chars) = if word.is_ascii() {
                let n = word_len.min(room);
                (&word[..n], n)
            } else {
                match word.char_indices().nth(room) {
                    Some((cut, _)) => (&word[..cut], room),
                    None => (word, word.chars().count()),
                }
            };
            self.all.push_str(taken);
            self.chars += chars;
            rest = &rest[word_len..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The anchor-text rule character by character, as written: the model
    /// `AnchorText::push` must equal for any split of the text into tokens.
    fn anchor_text_model(tokens: &[&str]) -> String {
        let (mut s, mut chars, mut space) = (String::new(), 0, false);
        for t in tokens {
            for c in t.chars() {
                if chars >= ANCHOR_TEXT_MAX {
                    break;
                }
                if c.is_ascii_whitespace() {
                    space = !s.is_empty();
                    continue;
                }
                if space {
                    s.push(' ');
                    chars += 1;
                    space = false;
                    if chars >= ANCHOR_TEXT_MAX {
                        break;
                    }
                }
                s.push(c);
                chars += 1;
            }
        }
        s
    }

    #[test]
    fn anchor_text_collapses_spaces_and_caps_characters() {
        let long_ascii = "word ".repeat(100);
        let long_wide = "é€😀 ".repeat(100);
        let one_long_word = "x".repeat(300);
        let wide_word = "ж".repeat(300);
        let cases: Vec<Vec<&str>> = vec![
            vec![""],
            vec!["  \t\n "],
            vec!["  Hello,\r\n  world  "],
            vec!["Hel", "lo", " ", " wor", "ld"],
            vec!["a", " ", "b", "\x0C", "c "],
            vec![" é\u{A0}ü ", "\u{3000}x"],
            vec![&long_ascii],
            vec![&long_wide],
            vec![&one_long_word],
            vec![&wide_word, "more"],
            vec![&one_long_word[..255], " ", "yz"],
            vec![&one_long_word[..255], "yz"],
            vec![&one_long_word[..254], " y", "z"],
        ];
        // Each case alone, then all of them as the texts of one page.
        let mut page = AnchorTexts::default();
        for tokens in &cases {
            let mut got = AnchorTexts::default();
            assert_eq!(got.begin(), 0);
            page.begin();
            for t in tokens {
                got.push(t);
                page.push(t);
            }
            let want = anchor_text_model(tokens);
            assert_eq!(got.get(0), want, "{tokens:?}");
            assert_eq!(got.chars, want.chars().count(), "{tokens:?}");
            assert!(got.chars <= ANCHOR_TEXT_MAX);
        }
        for (i, tokens) in cases.iter().enumerate() {
            assert_eq!(page.get(i), anchor_text_model(tokens), "{tokens:?}");
        }
        assert_eq!(page.get(cases.len()), "");
        page.clear();
        page.push("no text begun");
        assert_eq!((page.all.as_str(), page.get(0)), ("", ""));
    }
}
