//! Failures and validation errors, named as in the URL Standard's table of
//! validation errors (§1.1 "Validation").
//!
//! A *validation error* never changes the parse result by itself; some are
//! accompanied by failure. [`ParseError`] names the failure kinds;
//! [`ValidationError`] carries every validation error with the byte position
//! in the caller's input where it was found. Reporting is opt-in (see
//! [`crate::ParseOptions::report_errors`]) and costs nothing when off: the
//! parser holds an `Option` and the fast paths only accept inputs that cannot
//! produce a validation error.

use std::fmt;

/// Why a string is not a URL: the standard's validation error that comes
/// with failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Input longer than `u32::MAX` bytes (component offsets are `u32`).
    #[error("input is longer than 4 GiB")]
    InputTooLong,
    /// missing-scheme-non-relative-URL: no scheme and no usable base.
    #[error("relative URL without a base")]
    MissingSchemeNonRelativeUrl,
    /// host-missing.
    #[error("empty host")]
    HostMissing,
    /// port-out-of-range.
    #[error("port number out of range")]
    PortOutOfRange,
    /// port-invalid.
    #[error("invalid port number")]
    PortInvalid,
    /// domain-to-ASCII: UTS #46 processing failed, or the result is empty.
    #[error("invalid international domain name")]
    DomainToAscii,
    /// domain-invalid-code-point.
    #[error("invalid domain character")]
    DomainInvalidCodePoint,
    /// host-invalid-code-point (opaque hosts).
    #[error("invalid host character")]
    HostInvalidCodePoint,
    /// IPv4-too-many-parts.
    #[error("IPv4 address with more than four parts")]
    Ipv4TooManyParts,
    /// IPv4-non-numeric-part.
    #[error("IPv4 address with a non-numeric part")]
    Ipv4NonNumericPart,
    /// IPv4-out-of-range-part.
    #[error("IPv4 address part out of range")]
    Ipv4OutOfRangePart,
    /// IPv6-unclosed.
    #[error("unclosed IPv6 address")]
    Ipv6Unclosed,
    /// IPv6-invalid-compression.
    #[error("IPv6 address starts with a single colon")]
    Ipv6InvalidCompression,
    /// IPv6-too-many-pieces.
    #[error("IPv6 address with more than eight pieces")]
    Ipv6TooManyPieces,
    /// IPv6-multiple-compression.
    #[error("IPv6 address with more than one '::'")]
    Ipv6MultipleCompression,
    /// IPv6-invalid-code-point.
    #[error("invalid character in IPv6 address")]
    Ipv6InvalidCodePoint,
    /// IPv6-too-few-pieces.
    #[error("IPv6 address with fewer than eight pieces")]
    Ipv6TooFewPieces,
    /// IPv4-in-IPv6-too-many-pieces.
    #[error("IPv6 address with embedded IPv4 has too many pieces")]
    Ipv4InIpv6TooManyPieces,
    /// IPv4-in-IPv6-invalid-code-point.
    #[error("invalid character in embedded IPv4 address")]
    Ipv4InIpv6InvalidCodePoint,
    /// IPv4-in-IPv6-out-of-range-part.
    #[error("embedded IPv4 address part out of range")]
    Ipv4InIpv6OutOfRangePart,
    /// IPv4-in-IPv6-too-few-parts.
    #[error("embedded IPv4 address with fewer than four parts")]
    Ipv4InIpv6TooFewParts,
}

impl ParseError {
    /// The validation error that accompanies this failure.
    pub fn kind(self) -> ValidationErrorKind {
        use ValidationErrorKind as K;
        match self {
            ParseError::InputTooLong => K::InputTooLong,
            ParseError::MissingSchemeNonRelativeUrl => K::MissingSchemeNonRelativeUrl,
            ParseError::HostMissing => K::HostMissing,
            ParseError::PortOutOfRange => K::PortOutOfRange,
            ParseError::PortInvalid => K::PortInvalid,
            ParseError::DomainToAscii => K::DomainToAscii,
            ParseError::DomainInvalidCodePoint => K::DomainInvalidCodePoint,
            ParseError::HostInvalidCodePoint => K::HostInvalidCodePoint,
            ParseError::Ipv4TooManyParts => K::Ipv4TooManyParts,
            ParseError::Ipv4NonNumericPart => K::Ipv4NonNumericPart,
            ParseError::Ipv4OutOfRangePart => K::Ipv4OutOfRangePart,
            ParseError::Ipv6Unclosed => K::Ipv6Unclosed,
            ParseError::Ipv6InvalidCompression => K::Ipv6InvalidCompression,
            ParseError::Ipv6TooManyPieces => K::Ipv6TooManyPieces,
            ParseError::Ipv6MultipleCompression => K::Ipv6MultipleCompression,
            ParseError::Ipv6InvalidCodePoint => K::Ipv6InvalidCodePoint,
            ParseError::Ipv6TooFewPieces => K::Ipv6TooFewPieces,
            ParseError::Ipv4InIpv6TooManyPieces => K::Ipv4InIpv6TooManyPieces,
            ParseError::Ipv4InIpv6InvalidCodePoint => K::Ipv4InIpv6InvalidCodePoint,
            ParseError::Ipv4InIpv6OutOfRangePart => K::Ipv4InIpv6OutOfRangePart,
            ParseError::Ipv4InIpv6TooFewParts => K::Ipv4InIpv6TooFewParts,
        }
    }
}

/// Every validation error type of the URL Standard (plus
/// [`ValidationErrorKind::InputTooLong`], this crate's own limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValidationErrorKind {
    // IDNA
    /// `domain-to-ASCII`: UTS #46 ToASCII recorded an error or returned the empty string.
    DomainToAscii,
    /// `domain-to-Unicode`: UTS #46 ToUnicode recorded an error.
    DomainToUnicode,
    // Host parsing
    /// `domain-invalid-code-point`: the domain holds a forbidden domain code point.
    DomainInvalidCodePoint,
    /// `domain-percent-encoded`: a host to be processed as a domain holds a
    /// percent-encoded byte.
    DomainPercentEncoded,
    /// `host-invalid-code-point`: an opaque host holds a forbidden host code point.
    HostInvalidCodePoint,
    /// `IPv4-empty-part`: an IPv4 address ends with `.`.
    Ipv4EmptyPart,
    /// `IPv4-too-few-parts`: an IPv4 address has fewer than four parts.
    Ipv4TooFewParts,
    /// `IPv4-too-many-parts`: an IPv4 address has more than four parts.
    Ipv4TooManyParts,
    /// `IPv4-non-numeric-part`: an IPv4 part is not a number.
    Ipv4NonNumericPart,
    /// `IPv4-non-decimal-part`: an IPv4 part is hexadecimal or octal.
    Ipv4NonDecimalPart,
    /// `IPv4-out-of-range-part`: an IPv4 part is above 255.
    Ipv4OutOfRangePart,
    /// `IPv6-unclosed`: an IPv6 address lacks its `]`.
    Ipv6Unclosed,
    /// `IPv6-invalid-compression`: an IPv6 address starts with a single `:`.
    Ipv6InvalidCompression,
    /// `IPv6-too-many-pieces`: an IPv6 address has more than eight pieces.
    Ipv6TooManyPieces,
    /// `IPv6-multiple-compression`: an IPv6 address has two `::`.
    Ipv6MultipleCompression,
    /// `IPv6-invalid-code-point`: an IPv6 address holds a code point it cannot.
    Ipv6InvalidCodePoint,
    /// `IPv6-too-few-pieces`: an uncompressed IPv6 address has fewer than eight pieces.
    Ipv6TooFewPieces,
    /// `IPv6-piece-leading-zero`: an IPv6 piece has a leading `0`.
    Ipv6PieceLeadingZero,
    /// `IPv4-in-IPv6-too-many-pieces`: an embedded IPv4 address comes after more than six pieces.
    Ipv4InIpv6TooManyPieces,
    /// `IPv4-in-IPv6-invalid-code-point`: an embedded IPv4 part is empty, has a
    /// leading zero or holds a non-digit.
    Ipv4InIpv6InvalidCodePoint,
    /// `IPv4-in-IPv6-out-of-range-part`: an embedded IPv4 part is above 255.
    Ipv4InIpv6OutOfRangePart,
    /// `IPv4-in-IPv6-too-few-parts`: an embedded IPv4 address has fewer than four parts.
    Ipv4InIpv6TooFewParts,
    // URL parsing
    /// `invalid-URL-unit`: a code point that is not a URL unit, or a `%` not
    /// followed by two hex digits.
    InvalidUrlUnit,
    /// `special-scheme-missing-following-solidus`: a special scheme not followed by `//`.
    SpecialSchemeMissingFollowingSolidus,
    /// `missing-scheme-non-relative-URL`: no scheme, and no base or a base with an opaque path.
    MissingSchemeNonRelativeUrl,
    /// `invalid-reverse-solidus`: a special URL uses `\` as a separator.
    InvalidReverseSolidus,
    /// `invalid-credentials`: the URL has credentials.
    InvalidCredentials,
    /// `host-missing`: a special URL without a host.
    HostMissing,
    /// `port-out-of-range`: the port is above 65535.
    PortOutOfRange,
    /// `port-invalid`: the port is not a number.
    PortInvalid,
    /// `file-invalid-Windows-drive-letter`: a relative file URL starts with a
    /// Windows drive letter while the base has a host.
    FileInvalidWindowsDriveLetter,
    /// `file-invalid-Windows-drive-letter-host`: a file URL's host is a Windows drive letter.
    FileInvalidWindowsDriveLetterHost,
    // This crate
    /// `input-too-long` (this crate's own): the result would not fit the `u32`
    /// offsets.
    InputTooLong,
}

impl ValidationErrorKind {
    /// The standard's name for this error, e.g. `"IPv4-non-decimal-part"`.
    pub fn spec_name(self) -> &'static str {
        use ValidationErrorKind as K;
        match self {
            K::DomainToAscii => "domain-to-ASCII",
            K::DomainToUnicode => "domain-to-Unicode",
            K::DomainInvalidCodePoint => "domain-invalid-code-point",
            K::DomainPercentEncoded => "domain-percent-encoded",
            K::HostInvalidCodePoint => "host-invalid-code-point",
            K::Ipv4EmptyPart => "IPv4-empty-part",
            K::Ipv4TooFewParts => "IPv4-too-few-parts",
            K::Ipv4TooManyParts => "IPv4-too-many-parts",
            K::Ipv4NonNumericPart => "IPv4-non-numeric-part",
            K::Ipv4NonDecimalPart => "IPv4-non-decimal-part",
            K::Ipv4OutOfRangePart => "IPv4-out-of-range-part",
            K::Ipv6Unclosed => "IPv6-unclosed",
            K::Ipv6InvalidCompression => "IPv6-invalid-compression",
            K::Ipv6TooManyPieces => "IPv6-too-many-pieces",
            K::Ipv6MultipleCompression => "IPv6-multiple-compression",
            K::Ipv6InvalidCodePoint => "IPv6-invalid-code-point",
            K::Ipv6TooFewPieces => "IPv6-too-few-pieces",
            K::Ipv6PieceLeadingZero => "IPv6-piece-leading-zero",
            K::Ipv4InIpv6TooManyPieces => "IPv4-in-IPv6-too-many-pieces",
            K::Ipv4InIpv6InvalidCodePoint => "IPv4-in-IPv6-invalid-code-point",
            K::Ipv4InIpv6OutOfRangePart => "IPv4-in-IPv6-out-of-range-part",
            K::Ipv4InIpv6TooFewParts => "IPv4-in-IPv6-too-few-parts",
            K::InvalidUrlUnit => "invalid-URL-unit",
            K::SpecialSchemeMissingFollowingSolidus => "special-scheme-missing-following-solidus",
            K::MissingSchemeNonRelativeUrl => "missing-scheme-non-relative-URL",
            K::InvalidReverseSolidus => "invalid-reverse-solidus",
            K::InvalidCredentials => "invalid-credentials",
            K::HostMissing => "host-missing",
            K::PortOutOfRange => "port-out-of-range",
            K::PortInvalid => "port-invalid",
            K::FileInvalidWindowsDriveLetter => "file-invalid-Windows-drive-letter",
            K::FileInvalidWindowsDriveLetterHost => "file-invalid-Windows-drive-letter-host",
            K::InputTooLong => "input-too-long",
        }
    }
}

impl fmt::Display for ValidationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spec_name())
    }
}

/// A validation error and where it was found: a byte offset into the string
/// the caller passed (before tab/newline removal and trimming).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValidationError {
    /// Which error.
    pub kind: ValidationErrorKind,
    /// Byte offset into the caller's input.
    pub position: usize,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.position)
    }
}
