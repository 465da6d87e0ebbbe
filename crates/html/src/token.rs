//! Tokens: views of the input (or of the tokenizer's scratch space).
//!
//! A token borrows from the input wherever the text needed no change, and
//! from the tokenizer's reused scratch buffers where it did (a character
//! reference, a CR, a NUL, an upper-case letter in a name), so producing a
//! token allocates nothing in the steady state. Tokens live until the next
//! call to the tokenizer; [`Token::to_owned`] keeps one longer. Element and
//! attribute names the crawler meets most are [`LocalName`]s, a small
//! integer.
//!
//! Input text outlives the token, scratch text does not. A consumer that
//! keeps attribute values past the next token (a link extractor's pending
//! links) asks [`Attrs::select_text`], which lends each value as a
//! [`TokenText`]: either its byte range in the input — to slice from the
//! consumer's own `&'input str`, with the input's lifetime and no copy — or
//! the scratch text, to copy. The tokenizer knows which (each span records
//! it), so the consumer needs no pointer arithmetic and it costs nothing.

use crate::names::LocalName;
use std::fmt;

/// An element or attribute name, ASCII-lower-cased as the tokenizer does.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Name<'t> {
    /// A well-known name.
    Known(LocalName),
    /// Any other name.
    Other(&'t str),
}

impl<'t> Name<'t> {
    /// The name as text.
    pub fn as_str(&self) -> &'t str {
        match *self {
            Name::Known(n) => n.as_str(),
            Name::Other(s) => s,
        }
    }

    /// The interned name, if well known.
    pub fn local(&self) -> Option<LocalName> {
        match self {
            Name::Known(n) => Some(*n),
            Name::Other(_) => None,
        }
    }
}

impl fmt::Debug for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for Name<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<LocalName> for Name<'_> {
    fn eq(&self, other: &LocalName) -> bool {
        self.local() == Some(*other)
    }
}

/// An attribute of a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attribute<'t> {
    /// The lower-cased name.
    pub name: Name<'t>,
    /// The value, with character references decoded.
    pub value: &'t str,
}

/// Token text as the tokenizer lends it: a span of the input, unchanged,
/// or text the tokenizer had to change (a character reference, a CR, a NUL,
/// an upper-case letter in a name), in its scratch space.
///
/// For a [`Tokenizer`](crate::Tokenizer) the input is the string it was
/// given, so [`TokenText::input_range`] slices that string into text that
/// lives as long as it. For a [`StreamTokenizer`](crate::StreamTokenizer)
/// the input is its own buffer, which it drains: there the range means
/// nothing after the token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenText<'t> {
    /// The input's bytes `start..start + text.len()`, unchanged.
    Input {
        /// The byte offset in the input where `text` starts.
        start: usize,
        /// The text (valid until the next token; the input's own slice
        /// lives longer).
        text: &'t str,
    },
    /// Text in the tokenizer's scratch space, valid until the next token.
    Scratch(&'t str),
}

impl<'t> TokenText<'t> {
    /// The text, wherever it lives.
    #[inline]
    pub fn as_str(self) -> &'t str {
        match self {
            TokenText::Input { text, .. } | TokenText::Scratch(text) => text,
        }
    }

    /// The text's byte range in the input, when it is a span of it.
    #[inline]
    pub fn input_range(self) -> Option<std::ops::Range<usize>> {
        match self {
            TokenText::Input { start, text } => Some(start..start + text.len()),
            TokenText::Scratch(_) => None,
        }
    }
}

/// Where a piece of token text lives: the input, or the tokenizer's
/// scratch buffer (text that needed a change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
    pub in_scratch: bool,
}

impl Span {
    #[inline]
    pub fn get<'t>(self, input: &'t str, scratch: &'t str) -> &'t str {
        let src = if self.in_scratch { scratch } else { input };
        &src[self.start..self.end]
    }

    /// The text's bytes (no char-boundary checks).
    #[inline]
    pub fn bytes<'t>(self, input: &'t str, scratch: &'t str) -> &'t [u8] {
        let src = if self.in_scratch { scratch } else { input };
        &src.as_bytes()[self.start..self.end]
    }

    /// The text, saying where it lives.
    #[inline]
    pub fn text<'t>(self, input: &'t str, scratch: &'t str) -> TokenText<'t> {
        let text = self.get(input, scratch);
        if self.in_scratch {
            TokenText::Scratch(text)
        } else {
            TokenText::Input {
                start: self.start,
                text,
            }
        }
    }
}

/// An attribute as the tokenizer keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AttrRepr {
    pub known: Option<LocalName>,
    pub name: Span,
    pub value: Span,
}

impl AttrRepr {
    /// The attribute's name: interned, or its text.
    #[inline]
    pub fn name<'t>(&self, input: &'t str, scratch: &'t str) -> Name<'t> {
        match self.known {
            Some(n) => Name::Known(n),
            None => Name::Other(self.name.get(input, scratch)),
        }
    }
}

/// The attributes of a tag, in source order, duplicates removed (the first
/// wins). A view: iterating allocates nothing.
#[derive(Clone, Copy)]
pub struct Attrs<'t> {
    pub(crate) reprs: &'t [AttrRepr],
    pub(crate) input: &'t str,
    pub(crate) scratch: &'t str,
}

impl<'t> Attrs<'t> {
    /// How many attributes.
    pub fn len(&self) -> usize {
        self.reprs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.reprs.is_empty()
    }

    /// The `i`-th attribute.
    pub fn get(&self, i: usize) -> Option<Attribute<'t>> {
        self.reprs.get(i).map(|r| self.view(r))
    }

    fn view(&self, r: &AttrRepr) -> Attribute<'t> {
        Attribute {
            name: r.name(self.input, self.scratch),
            value: r.value.get(self.input, self.scratch),
        }
    }

    /// The attributes in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Attribute<'t>> + '_ {
        self.reprs.iter().map(|r| self.view(r))
    }

    /// The attributes with a well-known name that `pick` picks, with what
    /// it returned and their values, in order. Cheaper than [`Attrs::iter`]
    /// when only some interned names matter: the others' names and values
    /// are not looked at.
    pub fn select<T>(
        self,
        pick: impl FnMut(LocalName) -> Option<T>,
    ) -> impl Iterator<Item = (T, &'t str)> {
        self.select_text(pick)
            .map(|(picked, v)| (picked, v.as_str()))
    }

    /// [`Attrs::select`], with each value as a [`TokenText`]: a span of the
    /// input (to keep without copying) or scratch text (to copy if kept).
    pub fn select_text<T>(
        self,
        mut pick: impl FnMut(LocalName) -> Option<T>,
    ) -> impl Iterator<Item = (T, TokenText<'t>)> {
        let Attrs {
            reprs,
            input,
            scratch,
        } = self;
        reprs.iter().filter_map(move |r| {
            let picked = pick(r.known?)?;
            Some((picked, r.value.text(input, scratch)))
        })
    }

    /// The value of the attribute called `name`.
    pub fn value(&self, name: &str) -> Option<&'t str> {
        self.iter().find(|a| a.name == name).map(|a| a.value)
    }
}

impl fmt::Debug for Attrs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Attrs<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl Eq for Attrs<'_> {}

/// A start or end tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag<'t> {
    /// The lower-cased tag name.
    pub name: Name<'t>,
    /// The attributes.
    pub attrs: Attrs<'t>,
    /// Whether the tag ended with `/>`.
    pub self_closing: bool,
}

impl<'t> Tag<'t> {
    /// The value of the first attribute called `name`.
    pub fn attr(&self, name: &str) -> Option<&'t str> {
        self.attrs.value(name)
    }
}

/// A DOCTYPE token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Doctype<'t> {
    /// The name, lower-cased; `None` when missing.
    pub name: Option<&'t str>,
    /// The public identifier; `None` when missing.
    pub public_id: Option<&'t str>,
    /// The system identifier; `None` when missing.
    pub system_id: Option<&'t str>,
    /// The force-quirks flag.
    pub force_quirks: bool,
}

/// A token.
///
/// Character tokens are coalesced into runs: a [`Token::Text`] ends only
/// where the tokenizer leaves its text state for markup (or at the end), so
/// the split points never depend on how the input was chunked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'t> {
    /// A DOCTYPE.
    Doctype(Doctype<'t>),
    /// A start tag.
    StartTag(Tag<'t>),
    /// An end tag.
    EndTag(Tag<'t>),
    /// A comment's data.
    Comment(&'t str),
    /// A run of characters.
    Text(&'t str),
}

/// A token that owns its text, for keeping tokens past the next call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnedToken {
    /// A DOCTYPE: name, public id, system id, force-quirks.
    Doctype {
        /// The name.
        name: Option<String>,
        /// The public identifier.
        public_id: Option<String>,
        /// The system identifier.
        system_id: Option<String>,
        /// The force-quirks flag.
        force_quirks: bool,
    },
    /// A start tag: name, attributes, self-closing flag.
    StartTag {
        /// The name.
        name: String,
        /// The attributes.
        attrs: Vec<(String, String)>,
        /// Whether it ended with `/>`.
        self_closing: bool,
    },
    /// An end tag: name, attributes, self-closing flag.
    EndTag {
        /// The name.
        name: String,
        /// The attributes (a parse error, kept as tokenized).
        attrs: Vec<(String, String)>,
        /// Whether it ended with `/>`.
        self_closing: bool,
    },
    /// A comment.
    Comment(String),
    /// A run of characters.
    Text(String),
}

impl Token<'_> {
    /// A copy that owns its text.
    pub fn to_owned(&self) -> OwnedToken {
        let attrs = |t: &Tag<'_>| {
            t.attrs
                .iter()
                .map(|a| (a.name.as_str().to_owned(), a.value.to_owned()))
                .collect()
        };
        match self {
            Token::Doctype(d) => OwnedToken::Doctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                force_quirks: d.force_quirks,
            },
            Token::StartTag(t) => OwnedToken::StartTag {
                name: t.name.as_str().to_owned(),
                attrs: attrs(t),
                self_closing: t.self_closing,
            },
            Token::EndTag(t) => OwnedToken::EndTag {
                name: t.name.as_str().to_owned(),
                attrs: attrs(t),
                self_closing: t.self_closing,
            },
            Token::Comment(c) => OwnedToken::Comment((*c).to_owned()),
            Token::Text(t) => OwnedToken::Text((*t).to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_picks_interned_names_in_order() {
        use crate::{Token, Tokenizer, TokenizerOptions};
        let html = "<a data-x=1 href=h CLASS=c x-y=2 href=dup title='t&amp;'>";
        let mut tok = Tokenizer::new(html, TokenizerOptions::default());
        let Some(Token::StartTag(tag)) = tok.next_token() else {
            panic!("a start tag")
        };
        let all: Vec<_> = tag.attrs.select(Some).collect();
        assert_eq!(
            all,
            [
                (LocalName::Href, "h"),
                (LocalName::Class, "c"),
                (LocalName::Title, "t&")
            ]
        );
        let picked: Vec<_> = tag
            .attrs
            .select(|n| (n != LocalName::Class).then_some(n.as_str()))
            .collect();
        assert_eq!(picked, [("href", "h"), ("title", "t&")]);
        // The same as filtering `iter` by interned name.
        let by_iter: Vec<_> = tag
            .attrs
            .iter()
            .filter_map(|a| Some((a.name.local()?, a.value)))
            .collect();
        assert_eq!(all, by_iter);
    }

    #[test]
    fn select_text_says_where_each_value_lives() {
        use crate::{Token, Tokenizer, TokenizerOptions};
        let html = "<a href=h title='t&amp;' class=\"c\" id='A\rB'>";
        let mut tok = Tokenizer::new(html, TokenizerOptions::default());
        let Some(Token::StartTag(tag)) = tok.next_token() else {
            panic!("a start tag")
        };
        let texts: Vec<_> = tag.attrs.select_text(Some).collect();
        let as_strs: Vec<_> = texts.iter().map(|&(n, t)| (n, t.as_str())).collect();
        let selected: Vec<_> = tag.attrs.select(Some).collect();
        assert_eq!(as_strs, selected);
        let ranges: Vec<_> = texts.iter().map(|(_, t)| t.input_range()).collect();
        // Unchanged values are spans of the input; changed ones are not.
        let (h, c) = (html.find("=h").unwrap() + 1, html.find("\"c").unwrap() + 1);
        assert_eq!(ranges, [Some(h..h + 1), None, Some(c..c + 1), None]);
        assert_eq!(texts[3].1, TokenText::Scratch("A\nB"));
    }

    #[test]
    fn interned_names_round_trip() {
        for name in LocalName::ALL {
            assert_eq!(
                LocalName::from_lowercase(name.as_str().as_bytes()),
                Some(*name)
            );
            assert_eq!(name.as_str(), name.as_str().to_ascii_lowercase());
        }
        for other in ["", "x", "divv", "dIv", "annotation-xml2", "scrip"] {
            assert_eq!(LocalName::from_lowercase(other.as_bytes()), None, "{other}");
        }
    }

    /// The lookup finds exactly the interned names: checked against
    /// a search of the list for every string of one or two name bytes,
    /// and for every name with one byte changed, cut short or lengthened
    /// (the strings nearest to a name).
    #[test]
    fn interned_name_lookup_is_exact() {
        let by_search = |s: &[u8]| {
            LocalName::ALL
                .iter()
                .copied()
                .find(|n| n.as_str().as_bytes() == s)
        };
        let alphabet: Vec<u8> = (b'a'..=b'z')
            .chain(b'0'..=b'9')
            .chain(*b"-:_A\0\xff")
            .collect();
        let mut tried = 0;
        let mut check = |s: &[u8]| {
            assert_eq!(LocalName::from_lowercase(s), by_search(s), "{s:?}");
            tried += 1;
        };
        for &a in &alphabet {
            check(&[a]);
            for &b in &alphabet {
                check(&[a, b]);
            }
        }
        for name in LocalName::ALL {
            let name = name.as_str().as_bytes();
            for i in 0..name.len() {
                for &c in &alphabet {
                    let mut changed = name.to_vec();
                    changed[i] = c;
                    check(&changed);
                }
                check(&name[..i]);
                check(&name[i + 1..]);
            }
            for &c in &alphabet {
                check(&[name, &[c]].concat());
                check(&[&[c], name].concat());
            }
            check(&[name, name].concat());
        }
        check(&[b'a'; 17]);
        check(&[b'a'; 1000]);
        assert!(tried > 50_000, "{tried}");
    }
}
