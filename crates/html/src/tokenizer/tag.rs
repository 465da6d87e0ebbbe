//! Tags and attributes: the tag open state, the end tag open state, the
//! tag name state, and the attribute states — before attribute name,
//! attribute name, after attribute name, before attribute value, attribute
//! value (double-quoted, single-quoted, unquoted), after attribute value
//! (quoted) — and the self-closing start tag state. Also the attribute
//! list's duplicate check and the emitted tag's end-tag errors.
//!
//! Other producers of the same tokens, to keep in step with these states:
//! the tag fast path (`fast_tag.rs`), which [`Run::tag`] tries first when
//! errors are not reported and which `Core::fast_scan` (`fast_path.rs`)
//! calls directly for a tag at the start of a data-state step; and, inside
//! the before attribute name state below, a shortcut for the common
//! `name="value"`. An appropriate end tag in RCDATA, RAWTEXT or script data
//! is recognised in `text.rs` and read here from its name on.

use super::TextMode;
use super::fast_tag::Attempt;
use super::run::{NeedMore, Peek, R, Run, is_ws_after_newline_normalization};
use super::step::{Built, Scan};
use crate::acc::Acc;
use crate::byte_scan::{
    self, ENDS_ATTR_NAME, ENDS_TAG_NAME, ENDS_UNQUOTED_VALUE, end_of_run, end_of_run_in_class,
};
use crate::error::ErrorCode;
use crate::names::LocalName;
use crate::token::AttrRepr;
use std::hash::BuildHasher;

/// What a tag-building state does next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TagState {
    TagName,
    BeforeAttrName,
    AttrName,
    AfterAttrName,
    BeforeAttrValue,
    AttrValueDq,
    AttrValueSq,
    AttrValueUnquoted,
    AfterAttrValueQuoted,
    SelfClosingStartTag,
}

/// The attribute being built.
#[derive(Clone, Copy, Default)]
struct AttrBuild {
    name: Acc,
    value: Acc,
    /// The interned name, looked up when the name is complete.
    known: Option<LocalName>,
    duplicate: bool,
}

impl<'a> Run<'a, '_> {
    // Tokenizer: tag open state (at '<', followed by a letter, '/', '!' or '?')
    pub(super) fn markup(&mut self, p: usize) -> R<Scan> {
        let q = p + 1;
        match self.b[q] {
            b'!' => self.markup_declaration_open(q + 1),
            b'/' => {
                // End tag open state.
                match self.peek(q + 1) {
                    Peek::More => Err(NeedMore),
                    Peek::Ascii(c, _) if c.is_ascii_alphabetic() => self.tag(q + 1, true),
                    Peek::Ascii(b'>', _) => {
                        self.err(ErrorCode::MissingEndTagName, q + 1);
                        self.core.pos = q + 2;
                        Ok(Scan::Nothing)
                    }
                    Peek::Eof => {
                        self.err(ErrorCode::EofBeforeTagName, q + 1);
                        let mut acc = Acc::new();
                        self.push(&mut acc, p, q + 1);
                        Ok(self.finish_text(acc, q + 1))
                    }
                    _ => {
                        self.err(ErrorCode::InvalidFirstCharacterOfTagName, q + 1);
                        self.bogus_comment(q + 1)
                    }
                }
            }
            b'?' => {
                self.err(ErrorCode::UnexpectedQuestionMarkInsteadOfTagName, q);
                self.bogus_comment(q)
            }
            _ => self.tag(q, false),
        }
    }

    /// Whether an attribute named like `name` is already on the tag.
    fn has_attr(&mut self, name: Acc, known: Option<LocalName>) -> bool {
        let input = self.input;
        let core = &mut *self.core;
        let attrs = &core.attrs;
        if attrs.is_empty() {
            return false;
        }
        if let Some(k) = known {
            // Interned names are unique: comparing ids is comparing names.
            return attrs.iter().any(|a| a.known == Some(k));
        }
        let scratch = core.scratch.as_str();
        let name = name.get(input, scratch);
        if attrs.len() < 16 {
            return attrs
                .iter()
                .any(|a| a.known.is_none() && a.name.get(input, scratch) == name);
        }
        // Many attributes: a map from name hash to the first attribute with
        // that hash (no allocation per name; a hash collision between
        // different names falls back to the scan, and SipHash with a random
        // key makes crafted collisions impractical).
        if !core.attr_set_used {
            core.attr_set.clear();
            for (i, a) in attrs.iter().enumerate() {
                let h = core.attr_hasher.hash_one(a.name.get(input, scratch));
                core.attr_set.entry(h).or_insert(i as u32);
            }
            core.attr_set_used = true;
        }
        match core.attr_set.get(&core.attr_hasher.hash_one(name)) {
            None => false,
            Some(&i) if attrs[i as usize].name.get(input, scratch) == name => true,
            Some(_) => attrs.iter().any(|a| a.name.get(input, scratch) == name),
        }
    }

    fn finish_attr(&mut self, attr: &mut Option<AttrBuild>) {
        if let Some(a) = attr.take()
            && !a.duplicate
        {
            let name = a.name.get(self.input, &self.core.scratch);
            if self.core.attr_set_used {
                let h = self.core.attr_hasher.hash_one(name);
                let index = self.core.attrs.len() as u32;
                self.core.attr_set.entry(h).or_insert(index);
            }
            self.core.attrs.push(AttrRepr {
                known: a.known,
                name: a.name.span(),
                value: a.value.span(),
            });
        }
    }

    /// Leaving the attribute name state: the duplicate-attribute check.
    fn check_duplicate(&mut self, attr: &mut Option<AttrBuild>, p: usize) {
        if let Some(a) = attr {
            a.known =
                LocalName::from_lowercase(a.name.get(self.input, &self.core.scratch).as_bytes());
            if self.has_attr(a.name, a.known) {
                a.duplicate = true;
                self.err(ErrorCode::DuplicateAttribute, p);
            }
        }
    }

    fn emit_tag(&mut self, end: bool, name: Acc, self_closing: bool, gt: usize) -> R<Scan> {
        if end {
            if !self.core.attrs.is_empty() {
                self.err(ErrorCode::EndTagWithAttributes, gt);
            }
            if self_closing {
                self.err(ErrorCode::EndTagWithTrailingSolidus, gt);
            }
        }
        let known = LocalName::from_lowercase(name.get(self.input, &self.core.scratch).as_bytes());
        self.core.mode = TextMode::Data;
        self.core.pos = gt + 1;
        Ok(Scan::Built(Built::Tag {
            end,
            known,
            name,
            self_closing,
        }))
    }

    /// A start or end tag whose name starts at `name_start`: the fast path
    /// for the common shape when it applies, else the tag states.
    pub(super) fn tag(&mut self, name_start: usize, end: bool) -> R<Scan> {
        if !self.core.report {
            let scratch_len = self.core.scratch.len();
            match self.fast_tag(name_start, end)? {
                Attempt::Done(scan) => return Ok(scan),
                Attempt::GiveUp => {
                    self.core.attrs.clear();
                    self.core.scratch.truncate(scratch_len);
                }
            }
        }
        self.tag_states(name_start, end)
    }

    // Tokenizer: tag name state and the attribute states
    fn tag_states(&mut self, name_start: usize, end: bool) -> R<Scan> {
        use TagState as T;
        let mut p = name_start;
        let mut name = Acc::new();
        let mut st = T::TagName;
        let mut attr: Option<AttrBuild> = None;
        self.core.attr_set_used = false;
        let mut self_closing = false;
        loop {
            if st == T::TagName {
                let q = end_of_run_in_class(self.b, p, ENDS_TAG_NAME);
                self.push(&mut name, p, q);
                p = q;
            }
            let (c, len) = match self.peek(p) {
                Peek::More => return Err(NeedMore),
                Peek::Eof => {
                    // EOF in any tag state (reconsuming states get here).
                    self.err(ErrorCode::EofInTag, p);
                    self.core.pos = p;
                    return Ok(Scan::End);
                }
                Peek::Ascii(c, len) => (c, len),
                Peek::Other(len) => (0x80, len),
            };
            match st {
                T::TagName => match c {
                    c if is_ws_after_newline_normalization(c) => {
                        p += len;
                        st = T::BeforeAttrName;
                    }
                    b'/' => {
                        p += 1;
                        st = T::SelfClosingStartTag;
                    }
                    b'>' => return self.emit_tag(end, name, self_closing, p),
                    0 => {
                        self.err(ErrorCode::UnexpectedNullCharacter, p);
                        self.push_char(&mut name, '\u{FFFD}');
                        p += 1;
                    }
                    c => {
                        // Upper case (the scan stops only there otherwise).
                        self.push_char(&mut name, c.to_ascii_lowercase() as char);
                        p += 1;
                    }
                },
                T::BeforeAttrName => match c {
                    c if is_ws_after_newline_normalization(c) => p += len,
                    b'/' | b'>' => st = T::AfterAttrName,
                    b'=' => {
                        self.err(ErrorCode::UnexpectedEqualsSignBeforeAttributeName, p);
                        self.finish_attr(&mut attr);
                        let mut a = AttrBuild::default();
                        self.push(&mut a.name, p, p + 1);
                        attr = Some(a);
                        p += 1;
                        st = T::AttrName;
                    }
                    _ => {
                        self.finish_attr(&mut attr);
                        // The common shape, name="value" with ordinary
                        // bytes, without a state transition per character
                        // class. Anything else takes the states below.
                        let q = end_of_run_in_class(self.b, p, ENDS_ATTR_NAME);
                        if q > p && self.b.get(q) == Some(&b'=') && self.b.get(q + 1) == Some(&b'"')
                        {
                            let v_end = end_of_run::<byte_scan::DqValue>(self.b, q + 2);
                            if self.b.get(v_end) == Some(&b'"') {
                                let mut a = AttrBuild::default();
                                self.push(&mut a.name, p, q);
                                attr = Some(a);
                                // Leaving the attribute name state at '='.
                                self.check_duplicate(&mut attr, q);
                                let mut v = Acc::new();
                                self.push(&mut v, q + 2, v_end);
                                attr.as_mut().expect("just set").value = v;
                                p = v_end + 1;
                                st = T::AfterAttrValueQuoted;
                                continue;
                            }
                        }
                        attr = Some(AttrBuild::default());
                        st = T::AttrName;
                    }
                },
                T::AttrName => {
                    let a = attr.as_mut().expect("in an attribute");
                    match c {
                        c if is_ws_after_newline_normalization(c) || c == b'/' || c == b'>' => {
                            self.check_duplicate(&mut attr, p);
                            st = T::AfterAttrName;
                        }
                        b'=' => {
                            self.check_duplicate(&mut attr, p);
                            p += 1;
                            st = T::BeforeAttrValue;
                        }
                        0 => {
                            self.err(ErrorCode::UnexpectedNullCharacter, p);
                            let mut n = a.name;
                            self.push_char(&mut n, '\u{FFFD}');
                            attr.as_mut().expect("in an attribute").name = n;
                            p += 1;
                        }
                        c => {
                            if matches!(c, b'"' | b'\'' | b'<') {
                                self.err(ErrorCode::UnexpectedCharacterInAttributeName, p);
                            }
                            let mut n = a.name;
                            if c.is_ascii_uppercase() {
                                self.push_char(&mut n, c.to_ascii_lowercase() as char);
                            } else {
                                // A run of ordinary name bytes at once.
                                let q = end_of_run_in_class(self.b, p + len, ENDS_ATTR_NAME);
                                self.push(&mut n, p, q);
                                p = q - 1;
                            }
                            attr.as_mut().expect("in an attribute").name = n;
                            p += 1;
                        }
                    }
                }
                T::AfterAttrName => match c {
                    c if is_ws_after_newline_normalization(c) => p += len,
                    b'/' => {
                        p += 1;
                        st = T::SelfClosingStartTag;
                    }
                    b'=' => {
                        p += 1;
                        st = T::BeforeAttrValue;
                    }
                    b'>' => {
                        self.finish_attr(&mut attr);
                        return self.emit_tag(end, name, self_closing, p);
                    }
                    _ => {
                        self.finish_attr(&mut attr);
                        attr = Some(AttrBuild::default());
                        st = T::AttrName;
                    }
                },
                T::BeforeAttrValue => match c {
                    c if is_ws_after_newline_normalization(c) => p += len,
                    b'"' => {
                        p += 1;
                        st = T::AttrValueDq;
                    }
                    b'\'' => {
                        p += 1;
                        st = T::AttrValueSq;
                    }
                    b'>' => {
                        self.err(ErrorCode::MissingAttributeValue, p);
                        self.finish_attr(&mut attr);
                        return self.emit_tag(end, name, self_closing, p);
                    }
                    _ => st = T::AttrValueUnquoted,
                },
                T::AttrValueDq | T::AttrValueSq => {
                    let quote = if st == T::AttrValueDq { b'"' } else { b'\'' };
                    let mut v = attr.as_ref().expect("in an attribute").value;
                    // A run of ordinary value bytes at once.
                    let q = if quote == b'"' {
                        end_of_run::<byte_scan::DqValue>(self.b, p)
                    } else {
                        end_of_run::<byte_scan::SqValue>(self.b, p)
                    };
                    if q > p {
                        self.push(&mut v, p, q);
                        p = q;
                    } else {
                        match c {
                            c if c == quote => {
                                p += 1;
                                st = T::AfterAttrValueQuoted;
                            }
                            b'&' => p = self.char_ref(p, &mut v, true)?,
                            0 => {
                                self.err(ErrorCode::UnexpectedNullCharacter, p);
                                self.push_char(&mut v, '\u{FFFD}');
                                p += 1;
                            }
                            _ => {
                                self.push_normalized(&mut v, p, c, len);
                                p += len;
                            }
                        }
                    }
                    attr.as_mut().expect("in an attribute").value = v;
                }
                T::AttrValueUnquoted => {
                    let mut v = attr.as_ref().expect("in an attribute").value;
                    match c {
                        c if is_ws_after_newline_normalization(c) => {
                            p += len;
                            st = T::BeforeAttrName;
                        }
                        b'&' => p = self.char_ref(p, &mut v, true)?,
                        b'>' => {
                            self.finish_attr(&mut attr);
                            return self.emit_tag(end, name, self_closing, p);
                        }
                        0 => {
                            self.err(ErrorCode::UnexpectedNullCharacter, p);
                            self.push_char(&mut v, '\u{FFFD}');
                            p += 1;
                        }
                        _ => {
                            if matches!(c, b'"' | b'\'' | b'<' | b'=' | b'`') {
                                self.err(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue, p);
                            }
                            let q = end_of_run_in_class(self.b, p + len, ENDS_UNQUOTED_VALUE);
                            self.push(&mut v, p, q);
                            p = q;
                        }
                    }
                    if let Some(a) = attr.as_mut() {
                        a.value = v;
                    }
                }
                T::AfterAttrValueQuoted => match c {
                    c if is_ws_after_newline_normalization(c) => {
                        p += len;
                        st = T::BeforeAttrName;
                    }
                    b'/' => {
                        p += 1;
                        st = T::SelfClosingStartTag;
                    }
                    b'>' => {
                        self.finish_attr(&mut attr);
                        return self.emit_tag(end, name, self_closing, p);
                    }
                    _ => {
                        self.err(ErrorCode::MissingWhitespaceBetweenAttributes, p);
                        st = T::BeforeAttrName;
                    }
                },
                T::SelfClosingStartTag => match c {
                    b'>' => {
                        self_closing = true;
                        self.finish_attr(&mut attr);
                        return self.emit_tag(end, name, self_closing, p);
                    }
                    _ => {
                        self.err(ErrorCode::UnexpectedSolidusInTag, p);
                        st = T::BeforeAttrName;
                    }
                },
            }
        }
    }
}
