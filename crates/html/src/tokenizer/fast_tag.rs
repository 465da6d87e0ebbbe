//! The fast path for tags: the common, error-free shape of a start or end
//! tag read in one pass, without the tag states' machine.
//!
//! Why: tags are about half of a page's tokens, and walking the standard's
//! ten tag states byte class by byte class (with an `Option` attribute under
//! construction, a state variable and an interning lookup per attribute)
//! cost several hundred instructions per tag. Almost every real tag is
//! `<name attr="value" attr=value attr>`; this reads exactly that shape
//! (names lower-cased, CR as whitespace between the parts) and nothing
//! else.
//!
//! Invariant: the fast path accepts a tag only when the standard's states
//! would produce the same token; anything else — CR or NUL in a value,
//! NUL, a quote or `<` in a name, `=` without a value, a duplicate
//! attribute, many attributes, the end of the buffer — makes it give up
//! ([`Attempt::GiveUp`]), the caller drops what it appended to the
//! attribute list and scratch space, and the tag is read again by the tag
//! states from its start. So the fast path never changes what is
//! tokenized, only how fast. It is off when errors are reported: it does
//! not track the positions errors need.
//! Character references in attribute values are decoded by the same code
//! as in the tag states (`char_ref.rs`). A name of 1 to 7 bytes of
//! `[a-z0-9-]` is read whole, with its interned form (`short_name.rs`);
//! any other is read byte by byte.
//!
//! States it stands in for: the tag name, before / after attribute name,
//! attribute name, before attribute value, attribute value (all three) and
//! after attribute value (quoted) states, and the self-closing start tag
//! state of `tag.rs`; a change there must be checked here. Callers:
//! `Run::tag` in `tag.rs` and `Core::fast_scan` in `fast_path.rs`.

use super::TextMode;
use super::run::{R, Run};
use super::short_name::short_name;
use super::step::{Built, Core, Scan};
use crate::acc::Acc;
use crate::byte_scan::{
    self, ENDS_ATTR_NAME_ANY_CASE, ENDS_TAG_NAME, ENDS_TAG_NAME_ANY_CASE, RUN_ENDS, end_of_run,
};
use crate::names::{LocalName, from_short_key};
use crate::token::AttrRepr;

/// What the fast path made of a tag.
pub(super) enum Attempt {
    /// The complete tag.
    Done(Scan),
    /// Not the common shape: read it with the tag states.
    GiveUp,
}

/// More attributes than this go to the tag states, whose duplicate check
/// stays linear for any number of attributes.
const MAX_FAST_ATTRS: usize = 16;

/// Whitespace inside a tag. CR is whitespace there too: input
/// preprocessing makes it LF, and whitespace between a tag's parts is not
/// part of any token.
#[inline]
fn is_tag_ws(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r')
}

/// Whether `c` after a tag name ends it on the fast path: whitespace, `/`
/// or `>` (anything else there is for the tag states).
#[inline]
fn ends_tag_name(c: u8) -> bool {
    is_tag_ws(c) || c == b'/' || c == b'>'
}

/// Whether `c` after an attribute name ends it on the fast path:
/// whitespace, `/`, `>` or `=` (a quote, `<`, NUL or another control is
/// for the tag states).
#[inline]
fn ends_attr_name(c: u8) -> bool {
    is_tag_ws(c) || matches!(c, b'/' | b'>' | b'=')
}

/// A character reference in an attribute value, decoded by a run of its
/// own: [`Run::fast_tag`]'s run is then never stored to memory (the stores
/// cost about 8 instructions per tag; references in values are rare). Out
/// of line, and handed the run's parts, not the run, for the same reason.
#[inline(never)]
fn char_ref_apart(
    input: &str,
    at_eof: bool,
    core: &mut Core,
    amp: usize,
    value: &mut Acc,
) -> R<usize> {
    let mut run = Run {
        input,
        b: input.as_bytes(),
        at_eof,
        core,
    };
    run.char_ref(amp, value, true)
}

impl Run<'_, '_> {
    /// [`char_ref_apart`] on this run's parts (inlined: the run itself is
    /// not handed on).
    #[inline(always)]
    fn char_ref_in_value(&mut self, amp: usize, value: &mut Acc) -> R<usize> {
        char_ref_apart(self.input, self.at_eof, self.core, amp, value)
    }

    /// The first index at or after `i` that is not tag whitespace, and the
    /// byte there (`None` at the end of the buffer): every caller reads it
    /// next, and this has loaded it already.
    #[inline]
    fn skip_tag_ws(&self, i: usize) -> (usize, Option<u8>) {
        match self.b.get(i) {
            Some(&c) if is_tag_ws(c) => {}
            c => return (i, c.copied()),
        }
        // Usually one space: decided without a loop.
        match self.b.get(i + 1) {
            Some(&c) if is_tag_ws(c) => {}
            c => return (i + 1, c.copied()),
        }
        match self.b[i + 2..].iter().position(|&c| !is_tag_ws(c)) {
            Some(k) => (i + 2 + k, Some(self.b[i + 2 + k])),
            None => (self.b.len(), None),
        }
    }

    /// The first index at or after `i` whose byte is in the class `mask` of
    /// [`RUN_ENDS`].
    /// Names are short: a plain loop beats a block scan.
    #[inline]
    fn short_run_end(&self, i: usize, mask: u8) -> usize {
        self.b[i..]
            .iter()
            .position(|&c| RUN_ENDS[c as usize] & mask != 0)
            .map_or(self.b.len(), |k| i + k)
    }

    /// Reads the tag whose name starts at `name_start` (an ASCII letter)
    /// if it has the common shape. Errors are not reported here, so the
    /// caller uses it only when reporting is off. Always inlined: left to
    /// the compiler, it stayed a call in the tokenizer's loop once `step`
    /// was inlined there, and the tree builder's loop runs faster with it
    /// inlined (`callgrind-tree.sh`: 21.15 → 20.28 Ir/byte).
    #[inline(always)]
    pub(super) fn fast_tag(&mut self, name_start: usize, end: bool) -> R<Attempt> {
        use Attempt::GiveUp;
        // Tag name state: name bytes up to whitespace, '/' or '>', lower-cased.
        let (name, known, mut p) = match short_name(self.b, name_start) {
            Some(s) if ends_tag_name(s.next) => (
                Acc::of_input(name_start, s.end),
                from_short_key(s.key),
                s.end,
            ),
            _ => {
                let mut name_end = self.short_run_end(name_start, ENDS_TAG_NAME);
                let upper = self.b.get(name_end).is_some_and(u8::is_ascii_uppercase);
                if upper {
                    name_end = self.short_run_end(name_end, ENDS_TAG_NAME_ANY_CASE);
                }
                if !self.b.get(name_end).is_some_and(|&c| ends_tag_name(c)) {
                    return Ok(GiveUp);
                }
                let (name, known) = self.fast_name(name_start, name_end, upper);
                (name, known, name_end)
            }
        };
        loop {
            // Before attribute name state (also after a value).
            let c;
            (p, c) = match self.skip_tag_ws(p) {
                (p, Some(c)) => (p, c),
                (_, None) => return Ok(GiveUp),
            };
            if c == b'>' {
                return Ok(self.fast_emit(end, known, name, false, p));
            }
            if c == b'/' {
                // Self-closing start tag state: only "/>" is error-free.
                if self.b.get(p + 1) != Some(&b'>') {
                    return Ok(GiveUp);
                }
                return Ok(self.fast_emit(end, known, name, true, p + 1));
            }
            if RUN_ENDS[c as usize] & ENDS_ATTR_NAME_ANY_CASE != 0 {
                // '=', a quote, '<' or NUL.
                return Ok(GiveUp);
            }
            // Attribute name state.
            let attr_start = p;
            // `interned`: the name's interned form, when it was read whole.
            let (attr_end, interned, upper) = match short_name(self.b, p) {
                Some(s) if ends_attr_name(s.next) => (s.end, Some(from_short_key(s.key)), false),
                _ => {
                    let mut attr_end = end_of_run::<byte_scan::AttrName>(self.b, p + 1);
                    let upper = c.is_ascii_uppercase()
                        || self.b.get(attr_end).is_some_and(u8::is_ascii_uppercase);
                    if upper {
                        attr_end = self.short_run_end(attr_end, ENDS_ATTR_NAME_ANY_CASE);
                    }
                    if !self.b.get(attr_end).is_some_and(|&c| ends_attr_name(c)) {
                        return Ok(GiveUp);
                    }
                    (attr_end, None, upper)
                }
            };
            let next;
            (p, next) = self.skip_tag_ws(attr_end);
            let mut value = Acc::new();
            match next {
                Some(b'=') => {
                    // Before attribute value state.
                    let first;
                    (p, first) = self.skip_tag_ws(p + 1);
                    match first {
                        Some(q @ (b'"' | b'\'')) => {
                            // Attribute value (double- or single-quoted) state.
                            p += 1;
                            let quoted_run_end = |b: &[u8], p: usize| {
                                if q == b'"' {
                                    end_of_run::<byte_scan::DqValue>(b, p)
                                } else {
                                    end_of_run::<byte_scan::SqValue>(b, p)
                                }
                            };
                            let v_end = quoted_run_end(self.b, p);
                            if self.b.get(v_end) == Some(&q) {
                                // The commonest value: one run up to the
                                // closing quote, a span of the input.
                                value = Acc::of_input(p, v_end);
                                p = v_end;
                            } else {
                                self.push(&mut value, p, v_end);
                                p = v_end;
                                loop {
                                    match self.b.get(p) {
                                        Some(&c) if c == q => break,
                                        Some(b'&') => p = self.char_ref_in_value(p, &mut value)?,
                                        _ => return Ok(GiveUp),
                                    }
                                    let v_end = quoted_run_end(self.b, p);
                                    self.push(&mut value, p, v_end);
                                    p = v_end;
                                }
                            }
                            // After attribute value (quoted) state: the next
                            // byte is reconsumed before an attribute name.
                            p += 1;
                        }
                        Some(b'>') | None => return Ok(GiveUp),
                        Some(_) => {
                            // Attribute value (unquoted) state.
                            loop {
                                let v_end = end_of_run::<byte_scan::UnquotedValue>(self.b, p);
                                self.push(&mut value, p, v_end);
                                p = v_end;
                                match self.b.get(p) {
                                    Some(&c) if is_tag_ws(c) || c == b'>' => break,
                                    Some(b'&') => p = self.char_ref_in_value(p, &mut value)?,
                                    _ => return Ok(GiveUp),
                                }
                            }
                        }
                    }
                }
                // After attribute name state: the attribute has no value,
                // and the next byte ('/', '>' or a name's first) is read at
                // the top of the loop.
                Some(_) => {}
                None => return Ok(GiveUp),
            }
            let (name, known) = match interned {
                Some(known) => (Acc::of_input(attr_start, attr_end), known),
                None => self.fast_name(attr_start, attr_end, upper),
            };
            if !self.push_fast_attr(name, known, value) {
                return Ok(GiveUp);
            }
        }
    }

    /// A name that is the input's `from..to`, lower-cased into scratch
    /// space when it has upper-case letters, and its interned form.
    #[inline]
    fn fast_name(&mut self, from: usize, to: usize, upper: bool) -> (Acc, Option<LocalName>) {
        if !upper {
            let known = LocalName::from_lowercase(&self.b[from..to]);
            return (Acc::of_input(from, to), known);
        }
        let mut name = Acc::new();
        name.push_lowercased_input(from, to, self.input, &mut self.core.scratch);
        let known = LocalName::from_lowercase(name.bytes(self.input, &self.core.scratch));
        (name, known)
    }

    /// Appends an attribute named `name` (`known`: interned); false when
    /// the tag states must take over (a duplicate, which is a parse error
    /// and dropped there, or too many attributes). Always inlined, with
    /// [`Run::fast_tag`]: a call per attribute otherwise.
    #[inline(always)]
    fn push_fast_attr(&mut self, name: Acc, known: Option<LocalName>, value: Acc) -> bool {
        if self.core.attrs.len() >= MAX_FAST_ATTRS {
            return false;
        }
        let attrs = &self.core.attrs;
        let duplicate = match known {
            // Interned names are unique: comparing ids is comparing names.
            Some(k) => attrs.iter().any(|a| a.known == Some(k)),
            None => {
                let (input, scratch) = (self.input, self.core.scratch.as_str());
                let text = name.bytes(input, scratch);
                attrs
                    .iter()
                    .any(|a| a.known.is_none() && a.name.bytes(input, scratch) == text)
            }
        };
        if duplicate {
            return false;
        }
        self.core.attrs.push(AttrRepr {
            known,
            name: name.span(),
            value: value.span(),
        });
        true
    }

    /// The complete tag, ending with the '>' at `gt`.
    #[inline]
    fn fast_emit(
        &mut self,
        end: bool,
        known: Option<LocalName>,
        name: Acc,
        self_closing: bool,
        gt: usize,
    ) -> Attempt {
        self.core.mode = TextMode::Data;
        self.core.pos = gt + 1;
        Attempt::Done(Scan::Built(Built::Tag {
            end,
            known,
            name,
            self_closing,
        }))
    }
}
