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
    DomainToAscii,
    DomainToUnicode,
    // Host parsing
    DomainInvalidCodePoint,
    DomainPercentEncoded,
    HostInvalidCodePoint,
    Ipv4EmptyPart,
    Ipv4TooFewParts,
    Ipv4TooManyParts,
    Ipv4NonNumericPart,
    Ipv4NonDecimalPart,
    Ipv4OutOfRangePart,
    Ipv6Unclosed,
    Ipv6InvalidCompression,
    Ipv6TooManyPieces,
    Ipv6MultipleCompression,
    Ipv6InvalidCodePoint,
    Ipv6TooFewPieces,
    Ipv6PieceLeadingZero,
    Ipv4InIpv6TooManyPieces,
    Ipv4InIpv6InvalidCodePoint,
    Ipv4InIpv6OutOfRangePart,
    Ipv4InIpv6TooFewParts,
    // URL parsing
    InvalidUrlUnit,
    SpecialSchemeMissingFollowingSolidus,
    MissingSchemeNonRelativeUrl,
    InvalidReverseSolidus,
    InvalidCredentials,
    HostMissing,
    PortOutOfRange,
    PortInvalid,
    FileInvalidWindowsDriveLetter,
    FileInvalidWindowsDriveLetterHost,
    // This crate
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
