//! Opt-in validation-error reporting.
//!
//! The parser holds a [`Reporter`]; when reporting is off it is a `None` and
//! every report is one predictable branch. Positions inside the parser are
//! offsets into the *preprocessed* input (trimmed, tabs and newlines removed);
//! the reporter maps them back to offsets into the caller's string.

use crate::error::{ParseError, ValidationError, ValidationErrorKind};

pub(crate) struct Reporter<'a> {
    sink: Option<Sink<'a>>,
}

struct Sink<'a> {
    errors: &'a mut Vec<ValidationError>,
    /// Bytes trimmed from the start of the caller's input.
    leading: usize,
    /// For each removed tab or newline, in order, how many kept bytes
    /// precede it (its position in preprocessed coordinates).
    removed: Vec<usize>,
}

impl<'a> Reporter<'a> {
    pub(crate) fn off() -> Reporter<'static> {
        Reporter { sink: None }
    }

    pub(crate) fn on(errors: &'a mut Vec<ValidationError>) -> Reporter<'a> {
        Reporter {
            sink: Some(Sink {
                errors,
                leading: 0,
                removed: Vec::new(),
            }),
        }
    }

    #[inline(always)]
    pub(crate) fn is_on(&self) -> bool {
        self.sink.is_some()
    }

    /// Records how preprocessing changed the input, so positions map back.
    pub(crate) fn set_preprocessing(&mut self, leading: usize, removed: Vec<usize>) {
        if let Some(s) = &mut self.sink {
            s.leading = leading;
            s.removed = removed;
        }
    }

    /// Reports a validation error at preprocessed offset `pos`.
    #[inline]
    pub(crate) fn report(&mut self, kind: ValidationErrorKind, pos: usize) {
        if let Some(s) = &mut self.sink {
            // A kept byte at preprocessed offset `pos` moves right by one
            // for every removed byte before it: those with at most `pos`
            // kept bytes before them. `removed` is ascending, so this is a
            // binary search — reporting stays linear on inputs full of tabs.
            let shift = s.removed.partition_point(|&r| r <= pos);
            let position = pos + s.leading + shift;
            s.errors.push(ValidationError { kind, position });
        }
    }

    /// Reports a validation error at a caller offset that needs no mapping.
    pub(crate) fn report_raw(&mut self, kind: ValidationErrorKind, position: usize) {
        if let Some(s) = &mut self.sink {
            s.errors.push(ValidationError { kind, position });
        }
    }

    /// Reports the validation error of a failure and returns the failure.
    #[inline]
    pub(crate) fn fail<T>(&mut self, error: ParseError, pos: usize) -> Result<T, ParseError> {
        self.report(error.kind(), pos);
        Err(error)
    }
}

/// Whether `c` is a URL code point (URL Standard §4.2 "URL code points").
pub(crate) fn is_url_code_point(c: char) -> bool {
    match c {
        'a'..='z' | 'A'..='Z' | '0'..='9' => true,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | '-' | '.' | '/' | ':' | ';'
        | '=' | '?' | '@' | '_' | '~' => true,
        '\u{A0}'..='\u{10FFFD}' => {
            let v = c as u32;
            // Surrogates cannot occur in a `char`; exclude noncharacters.
            !((0xFDD0..=0xFDEF).contains(&v) || (v & 0xFFFE) == 0xFFFE)
        }
        _ => false,
    }
}

/// Reports invalid-URL-unit for the code point starting at byte `i` of `s`
/// when it is not a URL code point, or is a `%` not followed by two hex
/// digits. Continuation bytes are ignored (their code point was checked at
/// its lead byte).
pub(crate) fn check_url_unit(s: &[u8], i: usize, rep: &mut Reporter<'_>, pos: usize) {
    let b = s[i];
    if b & 0xC0 == 0x80 {
        return;
    }
    if b == b'%' {
        let ok = s.len() > i + 2 && s[i + 1].is_ascii_hexdigit() && s[i + 2].is_ascii_hexdigit();
        if !ok {
            rep.report(ValidationErrorKind::InvalidUrlUnit, pos);
        }
        return;
    }
    let len = match b {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let c = std::str::from_utf8(&s[i..(i + len).min(s.len())])
        .ok()
        .and_then(|t| t.chars().next());
    if !c.is_some_and(is_url_code_point) {
        rep.report(ValidationErrorKind::InvalidUrlUnit, pos);
    }
}

/// [`check_url_unit`] over a whole string starting at preprocessed offset
/// `pos`.
pub(crate) fn check_url_units(s: &str, rep: &mut Reporter<'_>, pos: usize) {
    let b = s.as_bytes();
    for i in 0..b.len() {
        check_url_unit(b, i, rep, pos + i);
    }
}
