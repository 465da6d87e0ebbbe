//! The DOCTYPE states: DOCTYPE state, before / after DOCTYPE name and
//! DOCTYPE name states, after DOCTYPE public / system keyword, before /
//! after DOCTYPE public / system identifier, DOCTYPE public / system
//! identifier (double- and single-quoted), between DOCTYPE public and
//! system identifiers, and bogus DOCTYPE state. They start after
//! `<!DOCTYPE`, which the markup declaration open state (`comment.rs`)
//! recognises.
//!
//! No fast path produces a DOCTYPE token: this is its only producer.

use super::run::{NeedMore, Peek, R, Run, is_ws_after_newline_normalization};
use super::step::{Built, DoctypeParts, Scan};
use crate::acc::Acc;
use crate::error::ErrorCode;

/// DOCTYPE states.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DoctypeState {
    Doctype,
    BeforeName,
    Name,
    AfterName,
    AfterPublicKeyword,
    BeforePublicId,
    PublicIdDq,
    PublicIdSq,
    AfterPublicId,
    BetweenPublicAndSystem,
    AfterSystemKeyword,
    BeforeSystemId,
    SystemIdDq,
    SystemIdSq,
    AfterSystemId,
    Bogus,
}

impl<'a> Run<'a, '_> {
    // Tokenizer: DOCTYPE state and its successors (after "<!DOCTYPE")
    pub(super) fn doctype(&mut self, mut p: usize) -> R<Scan> {
        use DoctypeState as D;
        let mut st = D::Doctype;
        let mut name: Option<Acc> = None;
        let mut public_id: Option<Acc> = None;
        let mut system_id: Option<Acc> = None;
        let mut force_quirks = false;
        macro_rules! emit {
            ($end:expr) => {{
                self.core.pos = $end;
                self.core.doctype = DoctypeParts {
                    name,
                    public_id,
                    system_id,
                    force_quirks,
                };
                return Ok(Scan::Built(Built::Doctype));
            }};
        }
        loop {
            let (c, len) = match self.peek(p) {
                Peek::More => return Err(NeedMore),
                Peek::Eof => {
                    if st != D::Bogus {
                        self.err(ErrorCode::EofInDoctype, p);
                        // Every DOCTYPE state but the bogus one sets
                        // force-quirks at EOF.
                        force_quirks = true;
                    }
                    emit!(p)
                }
                Peek::Ascii(c, len) => (c, len),
                Peek::Other(len) => (0x80, len),
            };
            match st {
                D::Doctype => {
                    if is_ws_after_newline_normalization(c) {
                        p += len;
                    } else if c != b'>' {
                        self.err(ErrorCode::MissingWhitespaceBeforeDoctypeName, p);
                    }
                    st = D::BeforeName;
                }
                D::BeforeName => match c {
                    c if is_ws_after_newline_normalization(c) => p += len,
                    b'>' => {
                        self.err(ErrorCode::MissingDoctypeName, p);
                        force_quirks = true;
                        emit!(p + 1)
                    }
                    _ => {
                        name = Some(Acc::new());
                        st = D::Name;
                    }
                },
                D::Name => {
                    let acc = name.as_mut().expect("name started");
                    match c {
                        c if is_ws_after_newline_normalization(c) => {
                            p += len;
                            st = D::AfterName;
                        }
                        b'>' => emit!(p + 1),
                        0 => {
                            self.err(ErrorCode::UnexpectedNullCharacter, p);
                            acc.push_char('\u{FFFD}', self.input, &mut self.core.scratch);
                            p += 1;
                        }
                        c if c.is_ascii_uppercase() => {
                            acc.push_char(
                                c.to_ascii_lowercase() as char,
                                self.input,
                                &mut self.core.scratch,
                            );
                            p += 1;
                        }
                        _ => {
                            acc.push_input(p, p + len, self.input, &mut self.core.scratch);
                            p += len;
                        }
                    }
                }
                D::AfterName => match c {
                    c if is_ws_after_newline_normalization(c) => p += len,
                    b'>' => emit!(p + 1),
                    _ => {
                        if self.starts_with_at(p, b"PUBLIC", true)? {
                            p += 6;
                            st = D::AfterPublicKeyword;
                        } else if self.starts_with_at(p, b"SYSTEM", true)? {
                            p += 6;
                            st = D::AfterSystemKeyword;
                        } else {
                            self.err(ErrorCode::InvalidCharacterSequenceAfterDoctypeName, p);
                            force_quirks = true;
                            st = D::Bogus;
                        }
                    }
                },
                // After DOCTYPE public/system keyword and before DOCTYPE
                // public/system identifier states: the same steps, for one
                // identifier or the other.
                D::AfterPublicKeyword
                | D::BeforePublicId
                | D::AfterSystemKeyword
                | D::BeforeSystemId => {
                    let public = matches!(st, D::AfterPublicKeyword | D::BeforePublicId);
                    let after_keyword = matches!(st, D::AfterPublicKeyword | D::AfterSystemKeyword);
                    match c {
                        c if is_ws_after_newline_normalization(c) => {
                            p += len;
                            st = if public {
                                D::BeforePublicId
                            } else {
                                D::BeforeSystemId
                            };
                        }
                        b'"' | b'\'' => {
                            if after_keyword {
                                self.err(
                                    if public {
                                        ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword
                                    } else {
                                        ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword
                                    },
                                    p,
                                );
                            }
                            let id = if public {
                                &mut public_id
                            } else {
                                &mut system_id
                            };
                            *id = Some(Acc::new());
                            st = match (public, c == b'"') {
                                (true, true) => D::PublicIdDq,
                                (true, false) => D::PublicIdSq,
                                (false, true) => D::SystemIdDq,
                                (false, false) => D::SystemIdSq,
                            };
                            p += 1;
                        }
                        b'>' => {
                            self.err(
                                if public {
                                    ErrorCode::MissingDoctypePublicIdentifier
                                } else {
                                    ErrorCode::MissingDoctypeSystemIdentifier
                                },
                                p,
                            );
                            force_quirks = true;
                            emit!(p + 1)
                        }
                        _ => {
                            self.err(
                                if public {
                                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                                } else {
                                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                                },
                                p,
                            );
                            force_quirks = true;
                            st = D::Bogus;
                        }
                    }
                }
                D::PublicIdDq | D::PublicIdSq | D::SystemIdDq | D::SystemIdSq => {
                    let quote = if matches!(st, D::PublicIdDq | D::SystemIdDq) {
                        b'"'
                    } else {
                        b'\''
                    };
                    let public = matches!(st, D::PublicIdDq | D::PublicIdSq);
                    let acc = if public {
                        public_id.as_mut()
                    } else {
                        system_id.as_mut()
                    }
                    .expect("identifier started");
                    match c {
                        c if c == quote => {
                            p += 1;
                            st = if public {
                                D::AfterPublicId
                            } else {
                                D::AfterSystemId
                            };
                        }
                        0 => {
                            self.err(ErrorCode::UnexpectedNullCharacter, p);
                            acc.push_char('\u{FFFD}', self.input, &mut self.core.scratch);
                            p += 1;
                        }
                        b'>' => {
                            self.err(
                                if public {
                                    ErrorCode::AbruptDoctypePublicIdentifier
                                } else {
                                    ErrorCode::AbruptDoctypeSystemIdentifier
                                },
                                p,
                            );
                            force_quirks = true;
                            emit!(p + 1)
                        }
                        b'\n' if self.b[p] == b'\r' => {
                            acc.push_char('\n', self.input, &mut self.core.scratch);
                            p += len;
                        }
                        _ => {
                            acc.push_input(p, p + len, self.input, &mut self.core.scratch);
                            p += len;
                        }
                    }
                }
                D::AfterPublicId | D::BetweenPublicAndSystem => match c {
                    c if is_ws_after_newline_normalization(c) => {
                        p += len;
                        st = D::BetweenPublicAndSystem;
                    }
                    b'>' => emit!(p + 1),
                    b'"' | b'\'' => {
                        if st == D::AfterPublicId {
                            self.err(ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers, p);
                        }
                        system_id = Some(Acc::new());
                        st = if c == b'"' {
                            D::SystemIdDq
                        } else {
                            D::SystemIdSq
                        };
                        p += 1;
                    }
                    _ => {
                        self.err(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier, p);
                        force_quirks = true;
                        st = D::Bogus;
                    }
                },
                D::AfterSystemId => match c {
                    c if is_ws_after_newline_normalization(c) => p += len,
                    b'>' => emit!(p + 1),
                    _ => {
                        self.err(
                            ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier,
                            p,
                        );
                        st = D::Bogus;
                    }
                },
                D::Bogus => match c {
                    b'>' => emit!(p + 1),
                    0 => {
                        self.err(ErrorCode::UnexpectedNullCharacter, p);
                        p += 1;
                    }
                    _ => p += len,
                },
            }
        }
    }
}
